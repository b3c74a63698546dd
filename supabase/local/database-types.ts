// TypeScript types of the schemas PostgREST serves (`public` for the app, `tool_agent` for the
// Tool Agent), in the shape `supabase gen types typescript` writes
// (Database -> schema -> Tables/Views/Functions/Enums/CompositeTypes), so supabase-js types
// every `.from()` and `.rpc()` call. `readCatalog` asks Postgres what the migrations built;
// `renderDatabaseTypes` is pure, so its output is stable and testable.
import type pg from "pg";

export interface CatalogColumn {
  name: string;
  /** Postgres type name without array brackets (e.g. "timestamptz", "uuid", a public enum). */
  type: string;
  isArray: boolean;
  nullable: boolean;
  /** Has a default or is generated/identity: optional on insert. */
  hasDefault: boolean;
}

export interface CatalogRelation {
  name: string;
  kind: "table" | "view";
  columns: CatalogColumn[];
  foreignKeys: { name: string; columns: string[]; referencedRelation: string; referencedColumns: string[]; isOneToOne: boolean }[];
}

export interface CatalogFunction {
  name: string;
  args: { name: string; type: string; isArray: boolean; hasDefault: boolean }[];
  returns: { type: string; isArray: boolean; setOf: boolean; columns?: { name: string; type: string; isArray: boolean }[] };
}

export interface Catalog {
  /** The Postgres schema the catalog describes. */
  schema: string;
  relations: CatalogRelation[];
  functions: CatalogFunction[];
  enums: { name: string; values: string[] }[];
}

const NUMBER = new Set(["int2", "int4", "int8", "float4", "float8", "numeric", "oid"]);
const STRING = new Set([
  "text",
  "varchar",
  "bpchar",
  "char",
  "name",
  "uuid",
  "date",
  "time",
  "timetz",
  "timestamp",
  "timestamptz",
  "interval",
  "citext",
  "inet",
  "bytea",
]);

/** The schemas PostgREST exposes (supabase/config.toml [api] schemas), in that order. */
export const EXPOSED_SCHEMAS = ["public", "tool_agent"] as const;

interface Names {
  schema: string;
  enums: ReadonlySet<string>;
}

function tsType(type: string, isArray: boolean, names: Names): string {
  let base: string;
  if (type === "bool") base = "boolean";
  else if (NUMBER.has(type)) base = "number";
  else if (STRING.has(type)) base = "string";
  else if (type === "json" || type === "jsonb") base = "Json";
  else if (type === "void") base = "undefined";
  else if (names.enums.has(type)) base = `Database[${JSON.stringify(names.schema)}]["Enums"]["${type}"]`;
  else base = "unknown";
  return isArray ? `${base}[]` : base;
}

const key = (name: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : JSON.stringify(name));
const byName = <T extends { name: string }>(items: readonly T[]) => [...items].sort((a, b) => a.name.localeCompare(b.name));
const indent = (text: string, spaces: number) => text.replace(/^(?=.)/gm, " ".repeat(spaces));

function objectType(fields: string[]): string {
  return fields.length ? `{\n${indent(fields.join("\n"), 2)}\n}` : "Record<PropertyKey, never>";
}

function relationBlock(relation: CatalogRelation, names: Names): string {
  const columns = byName(relation.columns);
  const type = (c: CatalogColumn) => `${tsType(c.type, c.isArray, names)}${c.nullable ? " | null" : ""}`;
  const row = columns.map((c) => `${key(c.name)}: ${type(c)}`);
  const parts = [`Row: ${objectType(row)}`];
  if (relation.kind === "table") {
    parts.push(`Insert: ${objectType(columns.map((c) => `${key(c.name)}${c.nullable || c.hasDefault ? "?" : ""}: ${type(c)}`))}`);
    parts.push(`Update: ${objectType(columns.map((c) => `${key(c.name)}?: ${type(c)}`))}`);
  }
  const relationships = byName(relation.foreignKeys).map((fk) =>
    [
      "{",
      `  foreignKeyName: ${JSON.stringify(fk.name)}`,
      `  columns: [${fk.columns.map((c) => JSON.stringify(c)).join(", ")}]`,
      `  isOneToOne: ${fk.isOneToOne}`,
      `  referencedRelation: ${JSON.stringify(fk.referencedRelation)}`,
      `  referencedColumns: [${fk.referencedColumns.map((c) => JSON.stringify(c)).join(", ")}]`,
      "},",
    ].join("\n"),
  );
  parts.push(relationships.length ? `Relationships: [\n${indent(relationships.join("\n"), 2)}\n]` : "Relationships: []");
  return `${key(relation.name)}: {\n${indent(parts.join("\n"), 2)}\n}`;
}

// Postgres declares no nullability for a function's arguments or results: any argument may be
// sent as null (PostgREST passes JSON null as SQL NULL) and any result may come back null. So,
// unlike `supabase gen types`, which types them as never null, both are `| null` here: a caller
// can pass null where the function expects it, and must handle a null it can receive.
const orNull = (type: string) => (type === "undefined" ? type : `${type} | null`);

function functionBlock(fn: CatalogFunction, names: Names, tables: ReadonlySet<string>): string {
  const args = fn.args.map((a) => `${key(a.name)}${a.hasDefault ? "?" : ""}: ${orNull(tsType(a.type, a.isArray, names))}`);
  const { returns } = fn;
  // A function returning a table's rows: typed as those rows, and marked as such (the shape
  // `supabase gen types` writes) so that `.rpc(...).select(...)` can embed related tables.
  if (tables.has(returns.type) && !returns.isArray) {
    const row = `Database[${JSON.stringify(names.schema)}]["Tables"][${JSON.stringify(returns.type)}]["Row"]`;
    const setof = [
      "SetofOptions: {",
      '  from: "*"',
      `  to: ${JSON.stringify(returns.type)}`,
      `  isOneToOne: ${!returns.setOf}`,
      `  isSetofReturn: ${returns.setOf}`,
      "}",
    ];
    return `${key(fn.name)}: {\n  Args: ${indent(objectType(args), 2).trimStart()}\n  Returns: ${returns.setOf ? `${row}[]` : row}\n${indent(setof.join("\n"), 2)}\n}`;
  }
  const element = returns.columns
    ? objectType(returns.columns.map((c) => `${key(c.name)}: ${orNull(tsType(c.type, c.isArray, names))}`))
    : orNull(tsType(returns.type, returns.isArray, names));
  const result = returns.setOf ? (returns.columns ? `${element}[]` : `Array<${element}>`) : element;
  return `${key(fn.name)}: {\n  Args: ${indent(objectType(args), 2).trimStart()}\n  Returns: ${indent(result, 2).trimStart()}\n}`;
}

const section = (name: string, blocks: string[]) =>
  blocks.length ? `${name}: {\n${indent(blocks.join("\n"), 2)}\n}` : `${name}: {\n  [_ in never]: never\n}`;

function schemaBlock(catalog: Catalog): string {
  const names: Names = { schema: catalog.schema, enums: new Set(catalog.enums.map((e) => e.name)) };
  const relations = byName(catalog.relations);
  const schema = [
    section(
      "Tables",
      relations.filter((r) => r.kind === "table").map((r) => relationBlock(r, names)),
    ),
    section(
      "Views",
      relations.filter((r) => r.kind === "view").map((r) => relationBlock(r, names)),
    ),
    section(
      "Functions",
      byName(catalog.functions).map((f) =>
        functionBlock(f, names, new Set(relations.filter((r) => r.kind === "table").map((r) => r.name))),
      ),
    ),
    section(
      "Enums",
      byName(catalog.enums).map((e) => `${key(e.name)}: ${e.values.map((v) => JSON.stringify(v)).join(" | ")}`),
    ),
    section("CompositeTypes", []),
  ].join("\n");
  return `${key(catalog.schema)}: {\n${indent(schema, 2)}\n}`;
}

export function renderDatabaseTypes(catalogs: readonly Catalog[]): string {
  return `// Generated from the local data plane by \`npm run db:types\` (supabase/local/database-types.ts).
// Do not edit: change a migration, then regenerate. A test fails while this file is stale.

export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[];

export type Database = {
  // Lets supabase-js type the PostgREST features of the server version it talks to.
  __InternalSupabase: {
    PostgrestVersion: "12";
  };
${indent(catalogs.map(schemaBlock).join("\n"), 2)}
};
`;
}

/** Reads one schema's tables, views, functions exposed through PostgREST, and enums. */
export async function readCatalog(client: pg.Client, schema: string): Promise<Catalog> {
  const columns = await client.query<{
    relation: string;
    kind: string;
    name: string;
    type: string;
    is_array: boolean;
    nullable: boolean;
    has_default: boolean;
  }>(
    `
    select c.relname as relation, c.relkind as kind, a.attname as name,
           coalesce(et.typname, t.typname)::text as type, t.typcategory = 'A' as is_array,
           not a.attnotnull as nullable,
           (a.atthasdef or a.attidentity <> '' or a.attgenerated <> '') as has_default
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace and n.nspname = $1
      join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      join pg_type t on t.oid = a.atttypid
      left join pg_type et on et.oid = t.typelem and t.typcategory = 'A'
     where c.relkind in ('r', 'p', 'v', 'm')
     order by c.relname, a.attnum`,
    [schema],
  );
  const foreignKeys = await client.query<{
    relation: string;
    name: string;
    columns: string[];
    referenced: string;
    referenced_columns: string[];
    one_to_one: boolean;
  }>(
    `
    select c.relname as relation, con.conname as name,
           array(select attname from unnest(con.conkey) with ordinality k(n, i) join pg_attribute on attrelid = con.conrelid and attnum = k.n order by k.i)::text[] as columns,
           rc.relname as referenced,
           array(select attname from unnest(con.confkey) with ordinality k(n, i) join pg_attribute on attrelid = con.confrelid and attnum = k.n order by k.i)::text[] as referenced_columns,
           exists (select 1 from pg_constraint u where u.conrelid = con.conrelid and u.contype in ('p', 'u') and u.conkey::int2[] @> con.conkey::int2[] and u.conkey::int2[] <@ con.conkey::int2[]) as one_to_one
      from pg_constraint con
      join pg_class c on c.oid = con.conrelid
      join pg_namespace n on n.oid = c.relnamespace and n.nspname = $1
      join pg_class rc on rc.oid = con.confrelid
      join pg_namespace rn on rn.oid = rc.relnamespace and rn.nspname = $1
     where con.contype = 'f'`,
    [schema],
  );
  const functions = await client.query<{
    name: string;
    arg_names: string[] | null;
    arg_types: string[];
    arg_arrays: boolean[];
    defaults: number;
    ret: string;
    ret_array: boolean;
    set_of: boolean;
    out_names: string[] | null;
    out_types: string[] | null;
    out_arrays: boolean[] | null;
  }>(
    `
    select p.proname as name,
           case when p.proargmodes is null then p.proargnames
                else array(select p.proargnames[i] from generate_subscripts(p.proargmodes, 1) i where p.proargmodes[i] in ('i', 'b', 'v') order by i) end as arg_names,
           array(select coalesce(et.typname, t.typname) from unnest(p.proargtypes) with ordinality a(oid, i) join pg_type t on t.oid = a.oid left join pg_type et on et.oid = t.typelem and t.typcategory = 'A' order by a.i)::text[] as arg_types,
           array(select t.typcategory = 'A' from unnest(p.proargtypes) with ordinality a(oid, i) join pg_type t on t.oid = a.oid order by a.i) as arg_arrays,
           p.pronargdefaults as defaults,
           coalesce(ret_e.typname, ret.typname)::text as ret, ret.typcategory = 'A' as ret_array, p.proretset as set_of,
           case when p.proargmodes is not null then array(select p.proargnames[i] from generate_subscripts(p.proargmodes, 1) i where p.proargmodes[i] in ('t', 'o') order by i) end as out_names,
           case when p.proargmodes is not null then array(select coalesce(et.typname, t.typname) from generate_subscripts(p.proargmodes, 1) i join pg_type t on t.oid = p.proallargtypes[i] left join pg_type et on et.oid = t.typelem and t.typcategory = 'A' where p.proargmodes[i] in ('t', 'o') order by i)::text[] end as out_types,
           case when p.proargmodes is not null then array(select t.typcategory = 'A' from generate_subscripts(p.proargmodes, 1) i join pg_type t on t.oid = p.proallargtypes[i] where p.proargmodes[i] in ('t', 'o') order by i) end as out_arrays
      from pg_proc p
      join pg_namespace n on n.oid = p.pronamespace and n.nspname = $1
      join pg_type ret on ret.oid = p.prorettype
      left join pg_type ret_e on ret_e.oid = ret.typelem and ret.typcategory = 'A'
     where p.prokind = 'f' and ret.typname <> 'trigger'
     order by p.proname`,
    [schema],
  );
  const enums = await client.query<{ name: string; values: string[] }>(
    `
    select t.typname as name, array_agg(e.enumlabel order by e.enumsortorder)::text[] as values
      from pg_type t join pg_enum e on e.enumtypid = t.oid
      join pg_namespace n on n.oid = t.typnamespace and n.nspname = $1
     group by t.typname`,
    [schema],
  );

  const relations = new Map<string, CatalogRelation>();
  for (const row of columns.rows) {
    const relation = relations.get(row.relation) ?? {
      name: row.relation,
      kind: row.kind === "v" || row.kind === "m" ? "view" : "table",
      columns: [],
      foreignKeys: [],
    };
    relation.columns.push({ name: row.name, type: row.type, isArray: row.is_array, nullable: row.nullable, hasDefault: row.has_default });
    relations.set(row.relation, relation);
  }
  for (const fk of foreignKeys.rows) {
    relations.get(fk.relation)?.foreignKeys.push({
      name: fk.name,
      columns: fk.columns,
      referencedRelation: fk.referenced,
      referencedColumns: fk.referenced_columns,
      isOneToOne: fk.one_to_one,
    });
  }
  return {
    relations: [...relations.values()],
    functions: functions.rows.map((fn) => {
      const inputs = fn.arg_types.length;
      const firstDefault = inputs - fn.defaults;
      const names = fn.arg_names ?? [];
      const outNames = fn.out_names ?? [];
      return {
        name: fn.name,
        args: fn.arg_types.map((type, i) => ({
          name: names[i] || `arg${i}`,
          type,
          isArray: fn.arg_arrays[i] ?? false,
          hasDefault: i >= firstDefault,
        })),
        returns: {
          type: fn.ret,
          isArray: fn.ret_array,
          setOf: fn.set_of,
          ...(fn.ret === "record" && outNames.length
            ? { columns: outNames.map((name, i) => ({ name, type: fn.out_types?.[i] ?? "unknown", isArray: fn.out_arrays?.[i] ?? false })) }
            : {}),
        },
      };
    }),
    enums: enums.rows,
    schema,
  };
}

/** Every exposed schema's catalog, in EXPOSED_SCHEMAS order. */
export async function readCatalogs(client: pg.Client): Promise<Catalog[]> {
  const catalogs: Catalog[] = [];
  for (const schema of EXPOSED_SCHEMAS) catalogs.push(await readCatalog(client, schema));
  return catalogs;
}
