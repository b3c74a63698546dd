// Hostile values in project_cli inputs: what Postgres would refuse is refused by validation
// with the field named; user-chosen keys never reach JavaScript internals; one error names
// every problem of an input.
import { describe, expect, test } from "vitest";
import type { CliContext } from "../../../functions/project_cli/context.ts";
import { MODULES } from "../../../functions/project_cli/registry.ts";
import type { CliFailure, CliResult } from "../../../functions/project_cli/result.ts";
import { runProjectCli } from "../../../functions/project_cli/router.ts";

const noDatabase = new Proxy(
  {},
  {
    get: () => {
      throw new Error("the database must not be touched");
    },
  },
);
const ctx = { db: noDatabase, userId: "11111111-1111-4111-8111-111111111111" } as unknown as CliContext;
const run = (call: unknown) => runProjectCli(call, ctx);

function refused(result: CliResult): CliFailure["error"] {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result)}`);
  return result.error;
}
const fieldsOf = (error: CliFailure["error"]) => [
  ...(error.details.invalid_fields ?? []).map((entry) => entry.field),
  ...(error.details.missing_fields ?? []),
  ...(error.details.unknown_fields ?? []),
];

/** Every string leaf of a method's example, as [path, value], so each can be made hostile. */
function stringLeaves(value: unknown, path: string[] = []): string[][] {
  if (typeof value === "string") return [path];
  if (value && typeof value === "object" && !Array.isArray(value))
    return Object.entries(value).flatMap(([key, inner]) => stringLeaves(inner, [...path, key]));
  return [];
}
function withValue(value: unknown, path: string[], replacement: string): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path as [string, ...string[]];
  return { ...(value as object), [head]: withValue((value as Record<string, unknown>)[head], rest, replacement) };
}

/** Extra examples so every string field of every method is covered, not just the example's. */
const EXTRA_INPUTS: Array<[string, string, Record<string, unknown>]> = [
  [
    "calendar",
    "create",
    {
      title: "t",
      start_at: "2026-04-23T16:00:00+08:00",
      end_at: "2026-04-23T17:00:00+08:00",
      timezone: "UTC",
      description: "d",
      recurrence_rule: "FREQ=DAILY",
      metadata: { location: "l", color: "c", notes: "n" },
    },
  ],
  ["calendar", "read", { mode: "range", start_at: "2026-04-23T16:00:00+08:00", end_at: "2026-04-24T16:00:00+08:00" }],
  ["calendar", "read", { mode: "event", event_id: "a0000000-0000-4000-8000-000000000001" }],
  [
    "calendar",
    "share",
    { event_id: "a0000000-0000-4000-8000-000000000001", invitee: { email: "a@example.com" }, permissions: { view: true } },
  ],
  [
    "calendar",
    "update",
    {
      event_id: "a0000000-0000-4000-8000-000000000001",
      patch: { title: "t", description: "d", timezone: "UTC", recurrence_rule: "FREQ=DAILY", metadata: { location: "l" } },
    },
  ],
  ["contacts", "read", { email: "bob@example.com" }],
  ["contacts", "read", { phone: "+15550000002" }],
  [
    "memory",
    "update",
    {
      kind: "user_memory",
      content: {
        preferred_name: "A",
        language: "en",
        timezone: "UTC",
        preferences: ["p"],
        facts: ["f"],
        important_people: [{ name: "n", relation: "r", notes: "x" }],
      },
    },
  ],
  [
    "memory",
    "update",
    {
      kind: "work_profile",
      content: {
        role: "r",
        team: "t",
        company: "c",
        location: "l",
        working_hours: { start: "09:00", end: "17:00" },
        meeting_preferences: ["m"],
        focus_areas: ["f"],
      },
    },
  ],
];
const CASES: Array<[string, string, Record<string, unknown>]> = [
  ...Object.entries(MODULES).flatMap(([module, spec]) =>
    Object.entries(spec.methods).map(
      ([method, definition]) =>
        [module, method, definition.example as Record<string, unknown>] as [string, string, Record<string, unknown>],
    ),
  ),
  ...EXTRA_INPUTS,
];

describe("text Postgres cannot store is refused by validation, field named", () => {
  const HOSTILE = { nul: "\u0000", "lone high surrogate": "\uD83D", "lone low surrogate": "\uDE00" };
  for (const [module, method, input] of CASES) {
    for (const path of stringLeaves(input)) {
      for (const [label, bad] of Object.entries(HOSTILE)) {
        test(`${module}.${method} input.${path.join(".")} with a ${label}`, async () => {
          const original = path.reduce<unknown>((value, key) => (value as Record<string, unknown>)[key], input) as string;
          // Appended and inserted mid-value, so no regex on the value can happen to refuse it by shape alone... mostly.
          const hostile = `${original.slice(0, 1)}${bad}${original.slice(1)}`;
          const error = refused(await run({ module, method, input: withValue(input, path, hostile) }));
          expect(error.code).toBe("INVALID_ACTION_INPUT");
          expect(fieldsOf(error)).toContain(`input.${path.join(".")}`);
        });
      }
    }
  }

  test("a NUL in the module or method name is an INVALID_ENVELOPE naming the field, and never echoed", async () => {
    const error = refused(await run({ module: "cal\u0000endar", method: "read", input: {} }));
    expect(error.code).toBe("INVALID_ENVELOPE");
    expect(error.details.invalid_fields).toContainEqual({ field: "module", problem: expect.stringContaining("NUL") });
    expect(JSON.stringify(error)).not.toContain("\\u0000");
  });

  test("an unknown key holding NUL or a lone surrogate is echoed with U+FFFD instead", async () => {
    const result = await run({ module: "memory", method: "read", input: { "a\u0000b": 1, "c\uD800": 2 } });
    expect(refused(result).details.unknown_fields).toEqual(["input.a\uFFFDb", "input.c\uFFFD"]);
  });
});

describe("datetimes outside what timestamptz and ISO 8601 round-trip are refused, field named", () => {
  const BAD = [
    "0000-01-01T00:00:00Z",
    "0001-01-01T00:00:00Z",
    "1899-12-31T23:59:59Z",
    "9999-01-01T00:00:00Z",
    "9999-12-31T23:59:59Z",
    "+275760-09-13T00:00:00Z",
    "-000001-01-01T00:00:00Z",
    "10000-01-01T00:00:00Z",
    "2026-04-23T16:00:00+25:00",
    "2026-04-23T16:00:00-99:00",
    "2026-04-23T16:00:00+14:01",
    "2026-04-23T16:00:00+08:60",
    "2026-04-23T16:00+08:00",
    "2026-04-23T16:00:00.1234Z",
    "2026-02-30T10:00:00Z",
  ];
  test.each(BAD)("calendar.create start_at %s", async (value) => {
    const error = refused(await run({ module: "calendar", method: "create", input: { title: "t", start_at: value, timezone: "UTC" } }));
    expect(error.code).toBe("INVALID_ACTION_INPUT");
    expect(fieldsOf(error)).toContain("input.start_at");
  });

  test.each(["0000-01-01", "1899-12-31", "9999-12-31", "2026-02-29", "2026-13-01"])("calendar.read day %s", async (date) => {
    const error = refused(await run({ module: "calendar", method: "read", input: { mode: "day", date, timezone: "UTC" } }));
    expect(fieldsOf(error)).toContain("input.date");
  });

  test.each([
    "1900-01-01T00:00:00Z",
    "1899-12-31T19:00:00-05:00",
    "9998-12-31T23:59:59.999Z",
    "2026-04-23T16:00:00.5+14:00",
    "2026-04-23T16:00:00-14:00",
  ])("the edges of the range are accepted: %s", async (value) => {
    const { validateProjectCli } = await import("../../../functions/project_cli/router.ts");
    expect(validateProjectCli({ module: "calendar", method: "create", input: { title: "t", start_at: value, timezone: "UTC" } }).ok).toBe(
      true,
    );
  });
});

describe("user-chosen names never reach JavaScript internals", () => {
  const INHERITED = ["constructor", "toString", "hasOwnProperty", "__proto__", "valueOf", "__defineGetter__"];

  test.each(INHERITED)("an input key %s is an unknown field, with no alias correction", async (key) => {
    const input = JSON.parse(`{"mode": "day", "date": "2026-04-23", "timezone": "UTC", ${JSON.stringify(key)}: {"mode": "event"}}`);
    const error = refused(await run({ module: "calendar", method: "read", input }));
    expect(error.code).toBe("INVALID_ACTION_INPUT");
    expect(error.details.unknown_fields).toEqual([`input.${key}`]);
    expect(error.details.alias_corrections).toEqual({});
    expect(JSON.stringify(error)).not.toMatch(/native code|function|\[object/);
  });

  test("an own __proto__ key cannot supply the fields of a valid input", async () => {
    const input = JSON.parse('{"__proto__": {"mode": "day", "date": "2026-04-23", "timezone": "UTC"}}');
    const error = refused(await run({ module: "calendar", method: "read", input }));
    expect(error.details.unknown_fields).toContain("input.__proto__");
  });

  test("an own __proto__ key beside valid fields is refused like any unknown key", async () => {
    const input = JSON.parse('{"kind": "all", "__proto__": {"x": 1}}');
    const error = refused(await run({ module: "memory", method: "read", input }));
    expect(error.details.unknown_fields).toEqual(["input.__proto__"]);
  });

  test.each(INHERITED)("an envelope key %s is unknown, never an alias", async (key) => {
    const call = JSON.parse(`{"module": "memory", "method": "read", "input": {}, ${JSON.stringify(key)}: 1}`);
    const error = refused(await run(call));
    expect(error.code).toBe("INVALID_ENVELOPE");
    expect(error.details.unknown_fields).toEqual([key]);
    expect(error.details.alias_corrections).toEqual({});
  });

  test.each(INHERITED)("a method named %s in a module with corrections gets no suggestion", async (name) => {
    const error = refused(await run({ module: "calendar", method: name, input: {} }));
    expect(error.code).toBe("UNKNOWN_METHOD");
    expect(error.details.suggestion).toBeUndefined();
  });

  test.each(INHERITED)("suggestions ignore an inherited %s", async (key) => {
    for (const [module, method] of [
      ["calendar", "read"],
      ["calendar", "update"],
      ["calendar", "share"],
    ] as const) {
      const error = refused(await run({ module, method, input: JSON.parse(`{${JSON.stringify(key)}: "x"}`) }));
      expect(JSON.stringify(error)).not.toMatch(/native code|function /);
    }
  });
});

describe("one error names every problem of an input", () => {
  test("missing, invalid and unknown fields together", async () => {
    const error = refused(
      await run({ module: "calendar", method: "create", input: { start_at: "tomorrow", timezone: "UTC", colour: "red" } }),
    );
    expect(error.details.missing_fields).toEqual(["input.title"]);
    expect(error.details.invalid_fields?.map((entry) => entry.field)).toEqual(["input.start_at"]);
    expect(error.details.unknown_fields).toEqual(["input.colour"]);
  });

  test("a missing discriminator and a stray field are reported together", async () => {
    const error = refused(await run({ module: "calendar", method: "read", input: { date: "2026-04-23", timezone: "UTC", colour: "red" } }));
    expect(error.details.missing_fields).toEqual(["input.mode"]);
    expect(error.details.unknown_fields).toEqual(["input.colour"]);
  });

  test("a wrong discriminator, a stray field and its alias correction are reported together", async () => {
    const error = refused(await run({ module: "memory", method: "update", input: { kind: "diary", content: {}, tz: "UTC" } }));
    expect(error.details.invalid_fields?.map((entry) => entry.field)).toEqual(["input.kind"]);
    expect(error.details.unknown_fields).toEqual(["input.tz"]);
    expect(error.details.alias_corrections).toEqual({ "input.tz": "input.timezone" });
  });
});
