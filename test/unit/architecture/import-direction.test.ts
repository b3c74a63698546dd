// Dependencies point one way (decision D30). Every import under functions/ is read with the
// TypeScript pre-processor (static, type-only, re-exports, dynamic `import()` and
// `typeof import()` alike) and checked against three rules:
//   1. the top-level folders are layers: lib imports neither project_cli nor agent, and
//      project_cli does not import agent; the tool agent imports only lib;
//   2. inside the agent, persistence implements ports the runtime declares, so runtime never
//      imports persistence;
//   3. no import cycle between folders.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";
import { describe, expect, test } from "vitest";

const ROOT = resolve(import.meta.dirname, "../../..");
const FUNCTIONS = join(ROOT, "functions");

/** What each top-level folder of functions/ may import. A new folder must be declared here. */
const LAYERS: Record<string, readonly string[]> = {
  // Build-time stand-ins for dependency parts (wrangler.toml [alias]): they import nothing of ours.
  bundle: ["bundle"],
  lib: ["lib"],
  project_cli: ["lib", "project_cli"],
  agent: ["lib", "project_cli", "agent"],
  // The second Worker: it shares only lib with the chat agent.
  "tool-agent": ["lib", "tool-agent"],
  // Browser code, bundled apart from both Workers: it talks to them over HTTP only.
  playground: ["playground"],
};

/** Folder pairs (from functions/) where the first must never import the second. */
const FORBIDDEN: ReadonlyArray<readonly [from: string, to: string, why: string]> = [
  ["agent/runtime", "agent/persistence", "persistence implements the runtime's ports (runtime/run-recorder.ts), not the other way"],
];

interface Edge {
  from: string;
  to: string;
  line: number;
  specifier: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Paths relative to functions/, with forward slashes. */
const rel = (path: string) => relative(FUNCTIONS, path).split(sep).join("/");

/** Every import of one file that lands inside functions/ (packages and other folders are not ours to check here). */
function importsOf(file: string, text: string): Edge[] {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles.flatMap(({ fileName, pos }) => {
    if (!fileName.startsWith(".")) return [];
    const target = resolve(dirname(file), fileName);
    if (!target.startsWith(`${FUNCTIONS}${sep}`)) return [];
    return [{ from: rel(file), to: rel(target), line: text.slice(0, pos).split("\n").length, specifier: fileName }];
  });
}

const layerOf = (path: string) => path.split("/")[0]!;

/**
 * The unit a cycle is checked between: a file's folder, except that files directly in a
 * top-level folder (functions/agent/app.ts, settings.ts, ...) are each a unit of their own: a
 * Worker's root holds both its composition (which imports everything below) and its contracts
 * (settings, the request env) that everything below may import.
 */
function unitOf(path: string): string {
  const parts = path.split("/");
  return parts.length <= 2 ? path : parts.slice(0, -1).join("/");
}

const inFolder = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);

function layerViolations(edges: readonly Edge[]): string[] {
  return edges.flatMap((edge) => {
    const from = layerOf(edge.from);
    const to = layerOf(edge.to);
    const allowed = LAYERS[from];
    if (!allowed) return [`${edge.from}: functions/${from} is not a declared layer (add it to LAYERS in this test)`];
    return allowed.includes(to)
      ? []
      : [`${edge.from}:${edge.line} imports ${edge.specifier}: functions/${from} must not import functions/${to}`];
  });
}

function forbiddenImports(edges: readonly Edge[]): string[] {
  return edges.flatMap((edge) =>
    FORBIDDEN.filter(([from, to]) => inFolder(edge.from, from) && inFolder(edge.to, to)).map(
      ([from, to, why]) => `${edge.from}:${edge.line} imports ${edge.specifier}: ${from} must not import ${to} (${why})`,
    ),
  );
}

/** Strongly connected groups of more than one unit (Tarjan), each with the edges that tie it. */
function unitCycles(edges: readonly Edge[]): string[] {
  const graph = new Map<string, Set<string>>();
  for (const edge of edges) {
    const [from, to] = [unitOf(edge.from), unitOf(edge.to)];
    if (!graph.has(to)) graph.set(to, new Set());
    if (from !== to) (graph.get(from) ?? graph.set(from, new Set()).get(from)!).add(to);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (unit: string) => {
    index.set(unit, index.size);
    low.set(unit, index.get(unit)!);
    stack.push(unit);
    onStack.add(unit);
    for (const next of graph.get(unit) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(unit, Math.min(low.get(unit)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(unit, Math.min(low.get(unit)!, index.get(next)!));
    }
    if (low.get(unit) === index.get(unit)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== unit);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const unit of [...graph.keys()].sort()) if (!index.has(unit)) visit(unit);
  return groups.map((group) => {
    const ties = edges.filter((edge) => {
      const [from, to] = [unitOf(edge.from), unitOf(edge.to)];
      return from !== to && group.includes(from) && group.includes(to);
    });
    return `cycle between ${group.join(", ")}: ${ties.map((edge) => `${edge.from}:${edge.line} -> ${edge.specifier}`).join("; ")}`;
  });
}

const edges = sourceFiles(FUNCTIONS).flatMap((file) => importsOf(file, readFileSync(file, "utf8")));

describe("the import graph of functions/", () => {
  test("is read whole (static, type-only, re-exported and dynamic imports)", () => {
    const has = (from: string, to: string) => edges.some((edge) => edge.from === from && edge.to === to);
    expect(has("agent/app.ts", "agent/routes/runs.ts")).toBe(true); // static
    expect(has("agent/index.ts", "agent/run-hub/run-hub.ts")).toBe(true); // export ... from
    expect(has("agent/global-props.d.ts", "agent/index.ts")).toBe(true); // typeof import()
    expect(edges.length).toBeGreaterThan(150);
  });

  test("layers: lib imports nothing above it, project_cli does not import the agent", () => {
    expect(layerViolations(edges)).toEqual([]);
  });

  test("inside the agent: runtime never imports persistence", () => {
    expect(forbiddenImports(edges)).toEqual([]);
  });

  test("no import cycle between folders", () => {
    expect(unitCycles(edges)).toEqual([]);
  });
});

describe("the checks themselves", () => {
  const edge = (from: string, to: string): Edge => ({ from, to, line: 1, specifier: to });

  test("a lib file importing project_cli, and project_cli importing the agent, are named", () => {
    expect(layerViolations([edge("lib/config.ts", "project_cli/registry.ts"), edge("project_cli/x.ts", "agent/settings.ts")])).toEqual([
      "lib/config.ts:1 imports project_cli/registry.ts: functions/lib must not import functions/project_cli",
      "project_cli/x.ts:1 imports agent/settings.ts: functions/project_cli must not import functions/agent",
    ]);
    expect(layerViolations([edge("somewhere-new/a.ts", "lib/log.ts")])[0]).toContain("not a declared layer");
  });

  test("a cycle through three folders is found once, with its edges; root files are units of their own", () => {
    const cycles = unitCycles([
      edge("agent/a/x.ts", "agent/b/y.ts"),
      edge("agent/b/y.ts", "agent/c/z.ts"),
      edge("agent/c/z.ts", "agent/a/w.ts"),
      edge("agent/app.ts", "agent/a/x.ts"),
      edge("agent/a/x.ts", "agent/settings.ts"),
    ]);
    expect(cycles).toHaveLength(1);
    expect(cycles[0]).toMatch(/^cycle between agent\/a, agent\/b, agent\/c: /);
    expect(unitOf("agent/settings.ts")).toBe("agent/settings.ts");
    expect(unitOf("project_cli/modules/calendar/read.ts")).toBe("project_cli/modules/calendar");
  });
});
