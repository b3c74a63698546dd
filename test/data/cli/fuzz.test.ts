// Generated inputs, thousands of them, against the real database: project_cli always answers
// with a well-formed result (success or structured error) and never throws, never leaks an
// INTERNAL error for something a caller sent.
import fc from "fast-check";
import { beforeAll, expect, test } from "vitest";
import { z } from "zod";
import type { CliContext } from "../../../functions/cli/context.ts";
import { MODULES } from "../../../functions/cli/registry.ts";
import { CLI_ERROR_CODES, type CliResult, toModelText } from "../../../functions/cli/result.ts";
import { runProjectCli } from "../../../functions/cli/router.ts";
import { FIELD_ALIASES } from "../../../functions/cli/validation.ts";
import { SEEDED, clientAs, createUser } from "../../support/users.ts";

const ResultShape = z.union([
  z.strictObject({ ok: z.literal(true), module: z.string(), method: z.string(), data: z.unknown() }),
  z.strictObject({
    ok: z.literal(false),
    module: z.string().nullable(),
    method: z.string().nullable(),
    error: z.strictObject({
      code: z.enum(Object.keys(CLI_ERROR_CODES) as [keyof typeof CLI_ERROR_CODES]),
      message: z.string().min(1),
      retryable: z.boolean(),
      details: z.record(z.string(), z.unknown()),
    }),
  }),
]);

let ctx: CliContext;
let eventId: string;
const stats = { runs: 0, ok: 0, codes: {} as Record<string, number> };

beforeAll(async () => {
  const userId = await createUser("fuzz");
  ctx = { db: await clientAs(userId), userId };
  const created = await runProjectCli({ module: "calendar", method: "create", input: { title: "Fuzz target", start_at: "2026-04-23T10:00:00Z", end_at: "2026-04-23T11:00:00Z", timezone: "UTC" } }, ctx);
  eventId = created.ok ? (created.data as { event: { id: string } }).event.id : "";
});

async function check(call: unknown): Promise<void> {
  let result: CliResult;
  try {
    result = await runProjectCli(call, ctx);
  } catch (error) {
    throw new Error(`threw for ${JSON.stringify(call)?.slice(0, 300)}: ${error}`);
  }
  stats.runs++;
  if (result.ok) stats.ok++;
  else stats.codes[result.error.code] = (stats.codes[result.error.code] ?? 0) + 1;
  expect(ResultShape.safeParse(result).success, JSON.stringify(result).slice(0, 300)).toBe(true);
  expect(() => JSON.parse(toModelText(result))).not.toThrow();
  if (!result.ok) expect(result.error.code, JSON.stringify({ call, result }).slice(0, 500)).not.toBe("INTERNAL");
}

const junk = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(""),
  fc.constant("x".repeat(6000)),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string(), { maxKeys: 3 }),
);

/** Values that are right for some field somewhere, so generated inputs often get deep. */
const plausible = () =>
  fc.oneof(
    fc.constantFrom("day", "range", "event", "all", "active", "archived", "user_memory", "work_profile", "merge", "replace"),
    fc.constantFrom("2026-04-23", "2026-02-30", "2026-04-23T16:00:00+08:00", "2026-04-23T16:00:00", "2026-04-24T00:00:00Z", "2027-01-01T00:00:00Z"),
    fc.constantFrom("Asia/Shanghai", "UTC", "America/New_York", "Mars/Olympus"),
    fc.constantFrom(eventId, SEEDED.alice, SEEDED.bob, "a0000000-0000-4000-8000-000000000001", "not-a-uuid"),
    fc.constantFrom("+15550000002", "+8613812345678", "bob@example.com", "Bob"),
    fc.record({ view: fc.boolean(), edit: fc.boolean(), invite: fc.boolean() }, { requiredKeys: [] }),
    fc.record({ phone: fc.constantFrom("+15550000002", "12345") }, { requiredKeys: [] }),
    fc.record({ title: fc.string({ maxLength: 10 }), status: fc.constantFrom("archived", "gone") }, { requiredKeys: [] }),
    fc.integer({ min: -5, max: 500 }),
    junk,
  );

function fieldNames(schema: z.ZodType): string[] {
  const json = JSON.stringify(z.toJSONSchema(schema, { unrepresentable: "any", io: "input" }));
  return [...new Set([...json.matchAll(/"([a-z_]+)":\{/g)].map((m) => m[1]!))].filter((name) => !["properties", "items", "anyOf", "oneOf"].includes(name));
}

test("envelopes of any shape: 2000 arbitrary values and 2000 near-misses", async () => {
  await fc.assert(fc.asyncProperty(fc.anything({ maxDepth: 3 }), check), { numRuns: 2000 });
  const moduleNames = fc.oneof(fc.constantFrom(...Object.keys(MODULES), "shell", "__proto__", "Calendar"), fc.string({ maxLength: 10 }));
  const methodNames = fc.oneof(fc.constantFrom("read", "create", "update", "delete", "share", "accept_invite", "get_event", "constructor", "exec"), fc.string({ maxLength: 10 }));
  const parts = {
    module: fc.oneof({ weight: 4, arbitrary: moduleNames }, junk),
    method: fc.oneof({ weight: 4, arbitrary: methodNames }, junk),
    input: fc.oneof({ weight: 4, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), junk, { maxKeys: 4 }) }, junk),
  };
  const envelope = fc.oneof(
    { weight: 3, arbitrary: fc.record(parts) },
    { weight: 1, arbitrary: fc.record({ ...parts, args: junk, command: junk }, { requiredKeys: [] }) },
  );
  await fc.assert(fc.asyncProperty(envelope, check), { numRuns: 2000 });
});

for (const [module, spec] of Object.entries(MODULES)) {
  for (const [method, definition] of Object.entries(spec.methods)) {
    test(`${module}.${method}: 300 generated inputs around its schema`, async () => {
      const names = [...fieldNames(definition.input), ...Object.keys(FIELD_ALIASES)];
      const input = fc.oneof(
        fc.dictionary(fc.constantFrom(...names), plausible(), { maxKeys: 6 }),
        fc.dictionary(fc.constantFrom(...names), plausible(), { maxKeys: 3 }).map((extra) => ({ ...(definition.example as object), ...extra })),
      );
      await fc.assert(fc.asyncProperty(input, (generated) => check({ module, method, input: generated })), { numRuns: 300 });
    });
  }
}

test("summary of what the fuzzing reached", () => {
  console.log(`project_cli fuzz: ${stats.runs} calls, ${stats.ok} succeeded, errors by code ${JSON.stringify(stats.codes)}`);
  expect(stats.runs).toBeGreaterThanOrEqual(7000);
  expect(stats.ok).toBeGreaterThan(0);
});
