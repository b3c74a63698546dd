// Rows are typed by the generated schema (functions/lib/database.types.ts through the typed
// client), so nothing under functions/ casts a query result: a cast would silence the compiler
// exactly where a column changed. Reads the TypeScript syntax tree of every file and names each
// `x as SomeRow`, each cast of a response's `.data` or of `unwrap(...)`, and each
// `as unknown as` (the double cast that forces any type onto anything).
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import ts from "typescript";
import { expect, test } from "vitest";

const FUNCTIONS = resolve(import.meta.dirname, "../../../functions");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

function rowCasts(name: string, text: string): string[] {
  const source = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isAsExpression(node)) {
      const type = node.type.getText(source);
      const expression = node.expression.getText(source);
      const doubleCast = ts.isAsExpression(node.expression) && node.expression.type.kind === ts.SyntaxKind.UnknownKeyword;
      if (doubleCast || /Rows?\b/.test(type) || /\bunwrap\(|\.data\b/.test(expression)) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        found.push(`${name}:${line + 1}: ${node.getText(source).replace(/\s+/g, " ").slice(0, 120)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test("no query result under functions/ is cast", () => {
  const files = sourceFiles(FUNCTIONS);
  expect(files.length).toBeGreaterThan(50);
  const casts = files.flatMap((file) => rowCasts(relative(FUNCTIONS, file).split(sep).join("/"), readFileSync(file, "utf8")));
  expect(casts).toEqual([]);
});

test("the check finds each kind of cast it forbids", () => {
  const text = [
    "const a = rows as EventRow[];",
    "const b = unwrap(await query) as Array<{ id: string }>;",
    "const c = (response.data as MessageRow[]).slice(0);",
    "const d = value as unknown as Thing;",
    "const e = [1] as const;",
    "const f = JSON.parse(text) as unknown;",
  ].join("\n");
  expect(rowCasts("x.ts", text).map((line) => line.split(":")[1])).toEqual(["1", "2", "3", "4"]);
});
