// Generators and checks shared by the project_cli fuzz tests (in-process and against the real
// database): the documented result shape, hostile strings and keys, and inputs shaped around
// each method's schema so generated calls often get deep.
import fc from "fast-check";
import { z } from "zod";
import { isStorableText } from "../../functions/project_cli/fields.ts";
import { MODULES } from "../../functions/project_cli/registry.ts";
import { CLI_ERROR_CODES, type CliResult } from "../../functions/project_cli/result.ts";
import { FIELD_ALIASES } from "../../functions/project_cli/validation.ts";

/** The result contract as docs/project-cli.md documents it. */
export const ResultShape = z.union([
  z.strictObject({ ok: z.literal(true), module: z.string(), method: z.string(), data: z.unknown() }),
  z.strictObject({
    ok: z.literal(false),
    module: z.string().nullable(),
    method: z.string().nullable(),
    error: z.strictObject({
      code: z.enum(Object.keys(CLI_ERROR_CODES) as [keyof typeof CLI_ERROR_CODES]),
      message: z.string().min(1),
      retryable: z.boolean(),
      details: z
        .object({
          missing_fields: z.array(z.string()).optional(),
          invalid_fields: z.array(z.strictObject({ field: z.string(), problem: z.string().min(1) })).optional(),
          unknown_fields: z.array(z.string()).optional(),
          alias_corrections: z.record(z.string(), z.string()).optional(),
          suggestion: z.string().optional(),
        })
        .loose(),
    }),
  }),
]);

/** Every string a failure carries (echoed names included) must itself be storable. */
export function unstorableStringIn(value: unknown): string | undefined {
  if (typeof value === "string") return isStorableText(value) ? undefined : value;
  if (Array.isArray(value)) return value.map(unstorableStringIn).find((found) => found !== undefined);
  if (value !== null && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      if (!isStorableText(key)) return key;
      const found = unstorableStringIn(inner);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** Why `result` breaks the contract, or undefined. `allowInternal` never: no input may cause INTERNAL. */
export function contractProblem(result: CliResult): string | undefined {
  const shape = ResultShape.safeParse(result);
  if (!shape.success) return `not the documented shape: ${shape.error.issues[0]?.message}`;
  if (!result.ok && result.error.code === "INTERNAL") return "INTERNAL";
  if (!result.ok) {
    const unstorable = unstorableStringIn(result.error);
    if (unstorable !== undefined) return `the error echoes an unstorable string ${JSON.stringify(unstorable)}`;
  }
  try {
    JSON.parse(JSON.stringify(result));
  } catch {
    return "not JSON";
  }
  return undefined;
}

export const INHERITED_NAMES = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf", "prototype", "__defineGetter__"];

const hostileString = fc.oneof(
  fc.constantFrom(
    "\u0000",
    "a\u0000b",
    "\uD800",
    "x\uDFFF",
    "\uDBFF\uDBFF",
    "😀".slice(0, 1),
    "",
    " ",
    "\t\n",
    "‮",
    "x".repeat(6000),
    "'; drop table schedule_items; --",
    "%_\\",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal template marker is hostile input here
    "${x}",
    "<script>",
  ),
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
);

const hostileDatetime = fc.oneof(
  fc.constantFrom(
    "0000-01-01T00:00:00Z",
    "0001-01-01T00:00:00Z",
    "+275760-09-13T00:00:00Z",
    "-271821-04-20T00:00:00Z",
    "10000-01-01T00:00:00Z",
    "9999-12-31T23:59:59Z",
    "1899-12-31T23:59:59Z",
    "2026-04-23T16:00:00+25:00",
    "2026-04-23T16:00:00-99:00",
    "2026-04-23T16:00:00+14:30",
    "2026-04-23T16:00:00.123456789Z",
    "2026-04-23T24:00:00Z",
    "2026-02-30T10:00:00Z",
    "2026-04-23 16:00:00Z",
    "2026-04-23T16:00:00z",
  ),
  fc
    .record({
      year: fc.integer({ min: 0, max: 99_999 }),
      month: fc.integer({ min: 0, max: 13 }),
      day: fc.integer({ min: 0, max: 32 }),
      offset: fc.integer({ min: -1_600, max: 1_600 }),
    })
    .map(({ year, month, day, offset }) => {
      const pad = (value: number, width = 2) => String(value).padStart(width, "0");
      const zone = offset === 0 ? "Z" : `${offset > 0 ? "+" : "-"}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
      return `${pad(year, 4)}-${pad(month)}-${pad(day)}T12:00:00${zone}`;
    }),
  fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }).map((date) => date.toISOString()),
);

const hostileDate = fc.oneof(
  fc.constantFrom("0000-01-01", "0001-01-01", "9999-12-31", "99999-01-01", "2026-02-29", "2024-02-29", "2026-00-10", "2026-4-3"),
  hostileDatetime.map((value) => value.slice(0, 10)),
);

const junk = fc.oneof(
  fc.string(),
  hostileString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom(...INHERITED_NAMES)), fc.string(), { maxKeys: 3 }),
);

/** Values right for some field somewhere, or nearly so. */
export function plausibleValue(ids: readonly string[]) {
  return fc.oneof(
    fc.constantFrom("day", "range", "event", "all", "active", "archived", "user_memory", "work_profile", "merge", "replace"),
    fc.constantFrom("2026-04-23", "2026-04-23T16:00:00+08:00", "2026-04-23T16:00:00", "2026-04-24T00:00:00Z", "2027-01-01T00:00:00Z"),
    hostileDatetime,
    hostileDate,
    fc.constantFrom("Asia/Shanghai", "UTC", "America/New_York", "Mars/Olympus", "Etc/GMT+14", "utc", "Africa/Monrovia"),
    fc.constantFrom(...ids, "a0000000-0000-4000-8000-000000000001", "not-a-uuid"),
    fc.constantFrom("+15550000002", "+8613812345678", "bob@example.com", "Bob", "FREQ=WEEKLY;BYDAY=MO", "09:00", "en"),
    fc.record({ view: fc.boolean(), edit: fc.boolean(), invite: fc.boolean() }, { requiredKeys: [] }),
    fc.record({ phone: fc.constantFrom("+15550000002", "12345"), email: hostileString }, { requiredKeys: [] }),
    fc.record({ title: hostileString, status: fc.constantFrom("archived", "gone"), start_at: hostileDatetime }, { requiredKeys: [] }),
    fc.record(
      {
        preferred_name: hostileString,
        location: hostileString,
        notes: hostileString,
        preferences: fc.array(hostileString, { maxLength: 2 }),
      },
      { requiredKeys: [] },
    ),
    fc.integer({ min: -5, max: 500 }),
    hostileString,
    junk,
  );
}

/** The field names a schema mentions anywhere, from its JSON Schema. */
export function fieldNames(schema: z.ZodType): string[] {
  const json = JSON.stringify(z.toJSONSchema(schema, { unrepresentable: "any", io: "input" }));
  return [...new Set([...json.matchAll(/"([a-z_]+)":\{/g)].map((m) => m[1]!))].filter(
    (name) => !["properties", "items", "anyOf", "oneOf"].includes(name),
  );
}

/** Inputs around one method's schema: its names, aliases and inherited names; its example with changes. */
export function inputsFor(example: object, schema: z.ZodType, ids: readonly string[]) {
  const names = [...fieldNames(schema), ...Object.keys(FIELD_ALIASES), ...INHERITED_NAMES];
  const key = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...names) }, { weight: 1, arbitrary: hostileString });
  const value = plausibleValue(ids);
  // Built with defineProperty so "__proto__" becomes an own key, exactly as JSON.parse makes it.
  const own = (entries: Array<[string, unknown]>, base: object = {}) => {
    const target: Record<string, unknown> = { ...base };
    for (const [name, inner] of entries)
      Object.defineProperty(target, name, { value: inner, enumerable: true, writable: true, configurable: true });
    return target;
  };
  return fc.oneof(
    fc.array(fc.tuple(key, value), { maxLength: 6 }).map((entries) => own(entries)),
    fc.array(fc.tuple(key, value), { maxLength: 3 }).map((entries) => own(entries, example)),
    fc
      .array(fc.constantFrom(...Object.keys(example)), { maxLength: 2 })
      .map((drop) => Object.fromEntries(Object.entries(example).filter(([name]) => !drop.includes(name)))),
  );
}

/** Envelopes of any shape, and near-misses of the right one. */
export function envelopes() {
  const moduleNames = fc.oneof(
    fc.constantFrom(...Object.keys(MODULES), "shell", "Calendar", ...INHERITED_NAMES),
    hostileString,
    fc.string({ maxLength: 10 }),
  );
  const methodNames = fc.oneof(
    fc.constantFrom("read", "create", "update", "delete", "share", "accept_invite", "get_event", "exec", ...INHERITED_NAMES),
    hostileString,
  );
  const parts = {
    module: fc.oneof({ weight: 4, arbitrary: moduleNames }, junk),
    method: fc.oneof({ weight: 4, arbitrary: methodNames }, junk),
    input: fc.oneof(
      {
        weight: 4,
        arbitrary: fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom(...INHERITED_NAMES)), junk, { maxKeys: 4 }),
      },
      junk,
    ),
  };
  return fc.oneof(
    fc.anything({ maxDepth: 3 }),
    fc.record(parts),
    fc.record({ ...parts, args: junk, command: junk, constructor: junk }, { requiredKeys: [] }),
  );
}
