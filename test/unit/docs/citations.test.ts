// Comments and docs cite decisions by number, and only documents that ship with the repository:
// every "decision D<n>" names a decision in docs/decisions.md, numbers run D1..Dn without gaps,
// and nothing points at the team-internal spec or design files.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, test } from "vitest";

const root = resolve(import.meta.dirname, "../../..");
const decisions = readFileSync(join(root, "docs/decisions.md"), "utf8");
const numbers = [...decisions.matchAll(/^## D(\d+)\. /gm)].map((match) => Number(match[1]));

function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((file) => /\.(ts|md|sql|toml)$/.test(file) && !file.includes("node_modules") && !file.endsWith(".generated.ts"))
    .map((file) => join(root, dir, file));
}
const sources = [...["functions", "supabase", "skills", "test", "docs"].flatMap(filesUnder), join(root, "README.md")].filter(
  (file) => !file.endsWith("citations.test.ts"),
);

describe("citations", () => {
  test("decisions are numbered D1..Dn in order, each once", () => {
    expect(numbers.length).toBeGreaterThan(0);
    expect(numbers).toEqual(numbers.map((_, index) => index + 1));
  });

  test("every cited decision exists", () => {
    const cited = sources.flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/\bdecisions? D(\d+)\b/g)].map((match) => ({
        file: relative(root, file),
        number: Number(match[1]),
      })),
    );
    expect(cited.length).toBeGreaterThan(0);
    expect(cited.filter((citation) => !numbers.includes(citation.number))).toEqual([]);
  });

  test("nothing cites a document that is not in the repository", () => {
    const outside = /\bspec 00\d|\bshared\/(?:design|stack-notes|spec)|\bdesign\.md\b|\b00[0-4]_[0-9a-f]{6,}/;
    const offenders = sources.filter((file) => outside.test(readFileSync(file, "utf8"))).map((file) => relative(root, file));
    expect(offenders).toEqual([]);
  });
});
