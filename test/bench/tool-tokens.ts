// Tokens the model pays for tool knowledge (o200k_base, the GPT-4o / GPT-5 tokenizer):
//   - the project_cli tool definition, sent on every model call;
//   - each skill file, paid only when the model reads it;
//   - the baseline this design replaces: every method as its own tool with its full JSON Schema.
// Run: npm run bench:tokens
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { z } from "zod";
import { MODULES } from "../../functions/project_cli/registry.ts";
import { projectCliFunctionTool } from "../../functions/project_cli/tool-definition.ts";

const tokens = (value: unknown) => encode(typeof value === "string" ? value : JSON.stringify(value)).length;
const skillsDir = resolve(import.meta.dirname, "../../skills");

const single = projectCliFunctionTool();
const baseline = Object.entries(MODULES).flatMap(([module, spec]) =>
  Object.entries(spec.methods).map(([method, definition]) => ({
    type: "function",
    function: {
      name: `${module}_${method}`,
      description: definition.summary,
      parameters: z.toJSONSchema(definition.input, { io: "input", unrepresentable: "any" }),
    },
  })),
);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : path.endsWith(".md") && name !== "README.md" ? [path] : [];
  });
}

console.log("Tool definitions (o200k_base tokens, JSON as sent in the request's tools array)");
console.log(`  project_cli (one tool, thin schema)        ${String(tokens([single])).padStart(6)}`);
console.log(`  baseline: ${baseline.length} tools with full schemas        ${String(tokens(baseline)).padStart(6)}`);
for (const tool of baseline) console.log(`    ${tool.function.name.padEnd(38)} ${String(tokens(tool)).padStart(6)}`);
console.log("\nSkill files (paid only when read through view_skill_file)");
let total = 0;
for (const file of walk(skillsDir)) {
  const count = tokens(readFileSync(file, "utf8"));
  total += count;
  console.log(`  ${relative(skillsDir, file).padEnd(40)} ${String(count).padStart(6)}`);
}
console.log(`  ${"all skill files".padEnd(40)} ${String(total).padStart(6)}`);
const typical =
  tokens([single]) +
  tokens(readFileSync(join(skillsDir, "calendar/SKILL.md"), "utf8")) +
  tokens(readFileSync(join(skillsDir, "calendar/actions/create_event.md"), "utf8"));
console.log(
  `\nA calendar.create call, paying tool + calendar index + create card once: ${typical} tokens (baseline: ${tokens(baseline)} on every call)`,
);
