// The skill docs and the code cannot drift: every example is run through the real
// validators, every documented mistake must be refused, every method and memory field is
// documented, and the index links only to cards that exist.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { UserMemoryContent, WorkProfileContent } from "../../functions/project_cli/modules/memory/schemas.ts";
import { ALL_METHODS, MODULES } from "../../functions/project_cli/registry.ts";
import { validateProjectCli } from "../../functions/project_cli/router.ts";

const skillsDir = resolve(import.meta.dirname, "../../skills");
const skillNames = readdirSync(skillsDir, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);
const files = skillNames.flatMap((skill) => {
  const actions = join(skillsDir, skill, "actions");
  return [join(skillsDir, skill, "SKILL.md"), ...(existsSync(actions) ? readdirSync(actions).map((file) => join(actions, file)) : [])];
});

interface Example {
  file: string;
  valid: boolean;
  call: { module: string; method: string; input: unknown };
}

const examples: Example[] = files.flatMap((file) =>
  [...readFileSync(file, "utf8").matchAll(/```json( wrong)?\n([\s\S]*?)```/g)].map((match) => ({
    file: relative(skillsDir, file),
    valid: !match[1],
    call: JSON.parse(match[2]!),
  })),
);

describe("skill files", () => {
  test.each(skillNames)("%s/SKILL.md has Agent Skills frontmatter naming the folder", (skill) => {
    const text = readFileSync(join(skillsDir, skill, "SKILL.md"), "utf8");
    const frontmatter = /^---\nname: (.+)\ndescription: (.+)\n---\n/.exec(text);
    expect(frontmatter?.[1]).toBe(skill);
    const description = frontmatter?.[2] ?? "";
    expect(description.length).toBeGreaterThan(40);
    expect(description.length).toBeLessThanOrEqual(1024);
  });

  test.each(examples.filter((e) => e.valid).map((e) => [e.file, JSON.stringify(e.call), e] as const))(
    "%s: %s validates",
    (_file, _text, example) => {
      const result = validateProjectCli(example.call);
      expect(result.ok ? "ok" : JSON.stringify(result.error)).toBe("ok");
    },
  );

  test.each(examples.filter((e) => !e.valid).map((e) => [e.file, JSON.stringify(e.call), e] as const))(
    "%s: documented mistake %s is refused",
    (_file, _text, example) => {
      expect(validateProjectCli(example.call).ok).toBe(false);
    },
  );

  test("every method has a valid example in the skills", () => {
    const documented = new Set(examples.filter((e) => e.valid).map((e) => `${e.call.module}.${e.call.method}`));
    expect(ALL_METHODS.filter((name) => !documented.has(name))).toEqual([]);
  });

  test("every calendar action card has its sections, an example and a mistake", () => {
    for (const file of files.filter((f) => f.includes(`${join("calendar", "actions")}`))) {
      const text = readFileSync(file, "utf8");
      for (const section of ["**When**", "**Required**", "**Mistakes**", "```json\n", "```json wrong\n"])
        expect(text, `${file} lacks ${section}`).toContain(section);
    }
  });

  test("the calendar index links exactly the cards that exist", () => {
    const index = readFileSync(join(skillsDir, "calendar", "SKILL.md"), "utf8");
    const linked = new Set([...index.matchAll(/actions\/[a-z_]+\.md/g)].map((m) => m[0]));
    const existing = new Set(readdirSync(join(skillsDir, "calendar", "actions")).map((file) => `actions/${file}`));
    expect(linked).toEqual(existing);
  });

  test("the calendar index names the ENV variables dates come from", () => {
    const index = readFileSync(join(skillsDir, "calendar", "SKILL.md"), "utf8");
    for (const name of ["USER_CONTEXT_JSON", "system_time_local", "timezone_effective"]) expect(index).toContain(name);
  });

  test("every memory field is documented", () => {
    const doc = readFileSync(join(skillsDir, "memory", "SKILL.md"), "utf8");
    for (const field of [...Object.keys(UserMemoryContent.shape), ...Object.keys(WorkProfileContent.shape)]) {
      expect(doc, field).toContain(`| \`${field}\` |`);
    }
  });
});

describe("examples carried by the methods themselves", () => {
  test.each(ALL_METHODS)("%s: the example returned in errors is valid", (name) => {
    const [module, method] = name.split(".") as [string, string];
    const result = validateProjectCli({ module, method, input: MODULES[module]!.methods[method]!.example });
    expect(result.ok).toBe(true);
  });
});
