// The skills the agent may see: each enabled skill's name and description (for the system
// prompt) and its files (for view_skill_file). Which skills are visible is independent of which
// project_cli methods are allowed.
import { SKILL_FILES } from "./bundle.generated.ts";

export interface SkillSummary {
  name: string;
  description: string;
}

export type SkillFileResult =
  | { ok: true; path: string; content: string }
  | {
      ok: false;
      error: { code: "SKILL_FILE_NOT_FOUND" | "SKILL_NOT_ENABLED" | "INVALID_PATH"; message: string; available_files: string[] };
    };

function frontmatter(text: string): SkillSummary | undefined {
  const match = /^---\nname: (.+)\ndescription: (.+)\n---\n/.exec(text);
  return match ? { name: match[1]!.trim(), description: match[2]!.trim() } : undefined;
}

export class SkillLibrary {
  readonly skills: readonly SkillSummary[];
  private readonly files: ReadonlyMap<string, string>;

  constructor(files: Readonly<Record<string, string>>, enabled?: readonly string[]) {
    const allowed = (path: string) => !enabled || enabled.includes(path.split("/")[0]!);
    this.files = new Map(Object.entries(files).filter(([path]) => allowed(path)));
    this.skills = [...this.files].filter(([path]) => path.endsWith("/SKILL.md")).flatMap(([, text]) => frontmatter(text) ?? []);
  }

  /** Paths the agent can read, e.g. "calendar/actions/get_event.md". */
  paths(): string[] {
    return [...this.files.keys()];
  }

  has(path: string): boolean {
    return this.files.has(path);
  }

  /** The file, or a structured refusal listing what exists. Never resolves paths on a filesystem. */
  read(rawPath: unknown): SkillFileResult {
    const available_files = this.paths();
    if (typeof rawPath !== "string" || rawPath.length === 0 || rawPath.length > 200) {
      return {
        ok: false,
        error: { code: "INVALID_PATH", message: "path must be a skill file path such as calendar/SKILL.md", available_files },
      };
    }
    const path = rawPath.replace(/^\/+/, "").replace(/^skills\//, "");
    if (path.split("/").some((segment) => segment === ".." || segment === ".") || path.includes("\\")) {
      return {
        ok: false,
        error: { code: "INVALID_PATH", message: "paths are relative to skills/ and may not contain . or ..", available_files },
      };
    }
    const content = this.files.get(path);
    if (content !== undefined) return { ok: true, path, content };
    if (SKILL_FILES[path] !== undefined) {
      return {
        ok: false,
        error: {
          code: "SKILL_NOT_ENABLED",
          message: `the skill "${path.split("/")[0]}" is not enabled for this assistant`,
          available_files,
        },
      };
    }
    return { ok: false, error: { code: "SKILL_FILE_NOT_FOUND", message: `no skill file ${path}`, available_files } };
  }
}

let defaultLibrary: { key: string; library: SkillLibrary } | undefined;

/** One library per enabled-skills setting for the life of the isolate. */
export function skillLibrary(enabled?: readonly string[]): SkillLibrary {
  const key = enabled?.join(",") ?? "*";
  if (defaultLibrary?.key !== key) defaultLibrary = { key, library: new SkillLibrary(SKILL_FILES, enabled) };
  return defaultLibrary.library;
}
