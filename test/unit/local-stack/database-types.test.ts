// How catalog facts become supabase-js types: nullability, insert defaults, arrays, enums,
// set-returning and table functions, and names that are not identifiers.
import { expect, test } from "vitest";
import { type Catalog, renderDatabaseTypes } from "../../../supabase/local/database-types.ts";

const catalog: Catalog = {
  schema: "public",
  relations: [
    {
      name: "notes",
      kind: "table",
      columns: [
        { name: "id", type: "uuid", isArray: false, nullable: false, hasDefault: true },
        { name: "body", type: "text", isArray: false, nullable: false, hasDefault: false },
        { name: "tags", type: "text", isArray: true, nullable: true, hasDefault: false },
        { name: "mood", type: "mood", isArray: false, nullable: false, hasDefault: false },
        { name: "odd name", type: "tsvector", isArray: false, nullable: true, hasDefault: false },
      ],
      foreignKeys: [
        { name: "notes_owner_fkey", columns: ["owner_id"], referencedRelation: "owners", referencedColumns: ["id"], isOneToOne: true },
      ],
    },
    {
      name: "note_view",
      kind: "view",
      columns: [{ name: "n", type: "int8", isArray: false, nullable: true, hasDefault: false }],
      foreignKeys: [],
    },
  ],
  functions: [
    {
      name: "count_notes",
      args: [{ name: "p_since", type: "timestamptz", isArray: false, hasDefault: true }],
      returns: { type: "int4", isArray: false, setOf: false },
    },
    {
      name: "ids",
      args: [{ name: "p_owner", type: "uuid", isArray: false, hasDefault: false }],
      returns: { type: "uuid", isArray: false, setOf: true },
    },
    { name: "touch", args: [], returns: { type: "void", isArray: false, setOf: false } },
    {
      name: "edit_note",
      args: [{ name: "p_patch", type: "jsonb", isArray: false, hasDefault: false }],
      returns: { type: "notes", isArray: false, setOf: true },
    },
    {
      name: "recent",
      args: [],
      returns: {
        type: "record",
        isArray: false,
        setOf: true,
        columns: [
          { name: "id", type: "uuid", isArray: false },
          { name: "meta", type: "jsonb", isArray: false },
        ],
      },
    },
  ],
  enums: [{ name: "mood", values: ["calm", "busy"] }],
};

const text = renderDatabaseTypes([catalog]);
const block = (name: string) => text.slice(text.indexOf(`${name}: {`), text.indexOf("\n        }", text.indexOf(`${name}: {`)));

test("rows are exact, inserts make defaults and nullables optional, updates make all optional", () => {
  expect(block("Row")).toContain('"odd name": unknown | null');
  expect(block("Row")).toContain("tags: string[] | null");
  expect(block("Row")).toContain('mood: Database["public"]["Enums"]["mood"]');
  expect(block("Insert")).toMatch(/id\?: string\n/);
  expect(block("Insert")).toMatch(/ body: string\n/);
  expect(block("Insert")).toMatch(/tags\?: string\[\] \| null/);
  expect(block("Update")).toMatch(/ body\?: string\n/);
});

test("views have rows only; foreign keys become relationships", () => {
  const views = text.slice(text.indexOf("Views: {"), text.indexOf("Functions: {"));
  expect(views).toContain("n: number | null");
  expect(views).not.toContain("Insert");
  expect(text).toContain('foreignKeyName: "notes_owner_fkey"');
  expect(text).toContain("isOneToOne: true");
});

test("functions: optional defaulted args, scalar and table results, enums as unions; arguments and results may be null", () => {
  expect(text).toMatch(/count_notes: \{\n\s+Args: \{\n\s+p_since\?: string \| null\n\s+\}\n\s+Returns: number \| null\n/);
  expect(text).toMatch(
    /recent: \{\n\s+Args: Record<PropertyKey, never>\n\s+Returns: \{\n\s+id: string \| null\n\s+meta: Json \| null\n\s+\}\[\]/,
  );
  expect(text).toMatch(/ids: \{\n\s+Args: \{\n\s+p_owner: string \| null\n\s+\}\n\s+Returns: Array<string \| null>\n/);
  expect(text).toMatch(/touch: \{\n\s+Args: Record<PropertyKey, never>\n\s+Returns: undefined\n/);
  expect(text).toContain('mood: "calm" | "busy"');
  expect(text).toContain("CompositeTypes: {\n      [_ in never]: never");
});

test("a function returning a table's rows is typed as those rows, marked for embedding", () => {
  expect(text).toMatch(
    /edit_note: \{\n\s+Args: \{\n\s+p_patch: Json \| null\n\s+\}\n\s+Returns: Database\["public"\]\["Tables"\]\["notes"\]\["Row"\]\[\]\n\s+SetofOptions: \{\n\s+from: "\*"\n\s+to: "notes"\n\s+isOneToOne: false\n\s+isSetofReturn: true\n/,
  );
});
