// `npm run build:playground`: bundles the playground's browser code (src/, with the official
// AG-UI client) into public/playground/app.js, and copies the ui_schema examples of
// docs/tool-cards.md into public/playground/cards.json for its card gallery. Both are generated
// (not committed). The folder is the agent Worker's static assets (wrangler.toml [assets]): the
// page is served before the Worker runs and is no part of its code bundle. It is built before
// wrangler starts (`npm run dev`, the test setup, `npm test`, `npm run deploy`), never by
// wrangler's [build]: a file rewritten in the assets folder while `wrangler dev` starts makes it
// restart, and that restart can lose its own port.
import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = fileURLToPath(new URL(".", import.meta.url));
const out = join(here, "public", "playground");

/** Every ```json block of the document that is a compiled card (it has schema_version and card). */
export function cardExamples(markdown: string): unknown[] {
  return [...markdown.matchAll(/```json\n([\s\S]*?)```/g)].flatMap(([, body]) => {
    try {
      const value: unknown = JSON.parse(body ?? "");
      return typeof value === "object" && value !== null && "schema_version" in value && "card" in value ? [value] : [];
    } catch {
      return [];
    }
  });
}

export async function buildPlayground(): Promise<{ bytes: number; cards: number }> {
  const result = await build({
    entryPoints: [join(here, "src", "main.ts")],
    outfile: join(out, "app.js"),
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    metafile: true,
    logLevel: "warning",
  });
  const cards = cardExamples(await readFile(join(here, "..", "..", "docs", "tool-cards.md"), "utf8"));
  writeFileSync(join(out, "cards.json"), `${JSON.stringify(cards)}\n`);
  const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
  return { bytes, cards: cards.length };
}

/** True when the built files are older than a source, or missing. */
export function isStale(): boolean {
  const built = [join(out, "app.js"), join(out, "cards.json")];
  if (!built.every((file) => existsSync(file))) return true;
  const builtAt = Math.min(...built.map((file) => statSync(file).mtimeMs));
  const sources = [
    join(here, "..", "..", "docs", "tool-cards.md"),
    ...readdirSync(join(here, "src")).map((name) => join(here, "src", name)),
  ];
  return sources.some((file) => statSync(file).mtimeMs > builtAt);
}

/** Builds only when a source is newer than what was built: unchanged files keep watchers quiet. */
export async function buildPlaygroundIfStale(): Promise<void> {
  if (isStale()) await buildPlayground();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { bytes, cards } = await buildPlayground();
  console.log(`playground: app.js ${(bytes / 1024).toFixed(1)} KiB, ${cards} example cards`);
}
