// Build step (Node): Workers have no filesystem, so the skill docs are compiled into a module
// the Worker imports. Run by `npm run build:skills`, which wrangler's [build] command, the
// test setup and `npm test` call; the output is generated, never edited or committed.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const here = import.meta.dirname;
const skillsDir = resolve(here, "../../../skills");
const outFile = join(here, "bundle.generated.ts");

function markdownFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return markdownFiles(path);
      return name.endsWith(".md") && relative(skillsDir, path).includes("/") ? [path] : []; // skip skills/README.md
    });
}

export function bundleSkills(): number {
  const files = markdownFiles(skillsDir);
  const entries = files.map((path) => `  ${JSON.stringify(relative(skillsDir, path))}: ${JSON.stringify(readFileSync(path, "utf8"))},`);
  const source = `// Generated from skills/ by functions/agent/skills/bundle-skills.ts. Do not edit.\nexport const SKILL_FILES: Readonly<Record<string, string>> = {\n${entries.join("\n")}\n};\n`;
  let current = "";
  try {
    current = readFileSync(outFile, "utf8");
  } catch {
    // first build
  }
  if (current !== source) writeFileSync(outFile, source); // unchanged output keeps wrangler's watcher quiet
  return files.length;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(here, "bundle-skills.ts")) {
  console.log(`bundled ${bundleSkills()} skill files`);
}
