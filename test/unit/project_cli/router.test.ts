// The router's decisions that need no database: envelope, whitelist, allow-list, validation.
import { describe, expect, test } from "vitest";
import type { CliContext } from "../../../functions/project_cli/context.ts";
import { ALL_METHODS, intersectAllowLists, parseAllowList } from "../../../functions/project_cli/registry.ts";
import { toModelText } from "../../../functions/project_cli/result.ts";
import { runProjectCli } from "../../../functions/project_cli/router.ts";

// Validation failures never reach the database; a context whose client explodes proves it.
const noDatabase = new Proxy(
  {},
  {
    get: () => {
      throw new Error("the database must not be touched");
    },
  },
);
const ctx = { db: noDatabase, userId: "11111111-1111-4111-8111-111111111111" } as unknown as CliContext;
const run = (call: unknown, allowed?: ReadonlySet<string>) => runProjectCli(call, ctx, allowed ? { allowed } : {});

describe("envelope", () => {
  test.each([null, 42, "calendar read", [], {}])("%j is an INVALID_ENVELOPE", async (call) => {
    const result = await run(call);
    expect(result).toMatchObject({ ok: false, error: { code: "INVALID_ENVELOPE", retryable: false } });
  });

  test("the legacy command/subcommand/args names are refused and corrected", async () => {
    const result = await run({ command: "calendar", subcommand: "read", args: { event_id: "x" } });
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: "INVALID_ENVELOPE",
        details: {
          missing_fields: expect.arrayContaining(["module", "method", "input"]),
          alias_corrections: { command: "module", subcommand: "method", args: "input" },
        },
      },
    });
  });

  test("input sent as a JSON string is refused with a precise suggestion", async () => {
    const result = await run({ module: "calendar", method: "read", input: '{"mode":"day"}' });
    expect(result).toMatchObject({ ok: false, module: "calendar", method: "read", error: { code: "INVALID_ENVELOPE" } });
    if (!result.ok) expect(result.error.details.suggestion).toContain("not as a string");
  });

  test("input is required, even when empty would do", async () => {
    const result = await run({ module: "memory", method: "read" });
    expect(result).toMatchObject({ ok: false, error: { code: "INVALID_ENVELOPE", details: { missing_fields: ["input"] } } });
  });
});

describe("whitelist", () => {
  test("an unknown module lists what exists", async () => {
    const result = await run({ module: "shell", method: "exec", input: { cmd: "rm -rf /" } });
    expect(result).toMatchObject({
      ok: false,
      error: { code: "UNKNOWN_METHOD", details: { valid_modules: ["calendar", "contacts", "memory", "tools"] } },
    });
  });

  test("an unknown method lists the module's methods and corrects known guesses", async () => {
    const result = await run({ module: "calendar", method: "get_event", input: {} });
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: "UNKNOWN_METHOD",
        details: {
          valid_methods: ["read", "create", "update", "delete", "share", "invitations", "accept_invite", "reject_invite"],
          suggestion: 'use calendar.read with {"mode": "event", "event_id": ...}',
        },
      },
    });
  });

  test.each(["toString", "__proto__", "constructor", "hasOwnProperty"])("inherited property %s is not a method", async (name) => {
    expect(await run({ module: "calendar", method: name, input: {} })).toMatchObject({ ok: false, error: { code: "UNKNOWN_METHOD" } });
    expect(await run({ module: name, method: "read", input: {} })).toMatchObject({ ok: false, error: { code: "UNKNOWN_METHOD" } });
  });

  test("a known method outside the allow-list is METHOD_NOT_ALLOWED", async () => {
    const result = await run(
      { module: "calendar", method: "delete", input: { event_id: "a0000000-0000-4000-8000-000000000001" } },
      parseAllowList("calendar.read,contacts.*"),
    );
    expect(result).toMatchObject({ ok: false, error: { code: "METHOD_NOT_ALLOWED", details: { allowed_methods: ["calendar.read"] } } });
  });
});

describe("allow-lists", () => {
  test("wildcards expand to existing methods only", () => {
    expect([...parseAllowList("contacts.*,memory.read")]).toEqual(["contacts.read", "memory.read"]);
    expect([...parseAllowList("*")]).toEqual(ALL_METHODS);
  });

  test("an entry that matches nothing is an error, not a silent narrowing", () => {
    expect(() => parseAllowList("calendar.reed")).toThrow(/matches no method/);
  });

  test("combining lists only narrows", () => {
    const combined = intersectAllowLists(parseAllowList("calendar.*"), parseAllowList("calendar.read,memory.read"));
    expect([...combined!]).toEqual(["calendar.read"]);
    expect(intersectAllowLists(undefined, undefined)).toBeUndefined();
  });
});

describe("input validation", () => {
  test('the spec\'s failure case: calendar.read with only event_id names mode "event"', async () => {
    const result = await run({ module: "calendar", method: "read", input: { event_id: "a0000000-0000-4000-8000-000000000001" } });
    expect(result).toMatchObject({
      ok: false,
      module: "calendar",
      method: "read",
      error: { code: "INVALID_ACTION_INPUT", retryable: false, details: { missing_fields: ["input.mode"] } },
    });
    if (!result.ok) {
      expect(result.error.details.suggestion).toContain('"mode": "event"');
      expect(result.error.details.example_input).toBeDefined();
    }
  });

  test("legacy field names are corrected, not accepted", async () => {
    const result = await run({
      module: "calendar",
      method: "create",
      input: {
        title: "Sync",
        start_time: "2026-04-23T16:00:00+08:00",
        end_time: "2026-04-23T17:00:00+08:00",
        event_timezone: "Asia/Shanghai",
      },
    });
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: "INVALID_ACTION_INPUT",
        details: {
          missing_fields: expect.arrayContaining(["input.start_at", "input.timezone"]),
          unknown_fields: expect.arrayContaining(["input.start_time", "input.end_time", "input.event_timezone"]),
          alias_corrections: {
            "input.start_time": "input.start_at",
            "input.end_time": "input.end_at",
            "input.event_timezone": "input.timezone",
          },
        },
      },
    });
  });

  test("times without an offset are refused", async () => {
    const result = await run({
      module: "calendar",
      method: "read",
      input: { mode: "range", start_at: "2026-04-23T00:00:00", end_at: "2026-04-24T00:00:00+08:00" },
    });
    expect(result).toMatchObject({ ok: false, error: { details: { invalid_fields: [{ field: "input.start_at" }] } } });
  });

  test("update fields outside patch get a suggestion", async () => {
    const result = await run({
      module: "calendar",
      method: "update",
      input: { event_id: "a0000000-0000-4000-8000-000000000001", title: "New" },
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.details.suggestion).toContain('inside "patch"');
  });

  test("a range longer than the bound is refused", async () => {
    const result = await run({
      module: "calendar",
      method: "read",
      input: { mode: "range", start_at: "2026-01-01T00:00:00Z", end_at: "2026-06-01T00:00:00Z" },
    });
    expect(result).toMatchObject({
      ok: false,
      error: { details: { invalid_fields: [{ field: "input.end_at", problem: expect.stringContaining("92 days") }] } },
    });
  });

  test("an unexpected failure inside a handler is INTERNAL, with no message or stack", async () => {
    // Valid input reaches the handler, whose database client explodes.
    const result = await run({ module: "calendar", method: "read", input: { mode: "day", date: "2026-04-23", timezone: "UTC" } });
    expect(result).toMatchObject({ ok: false, error: { code: "INTERNAL", retryable: false, details: { error_type: "Error" } } });
    expect(JSON.stringify(result)).not.toContain("must not be touched");
  });

  test("the model-facing text is the whole result as JSON", async () => {
    const result = await run({ module: "calendar", method: "nope", input: {} });
    expect(JSON.parse(toModelText(result))).toEqual(result);
  });
});
