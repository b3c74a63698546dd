// Against the real database: values Postgres would refuse never reach it (a named
// INVALID_ACTION_INPUT, not INTERNAL or an unnamed database refusal), and every datetime the
// tool accepts comes back from the database, through the event view, in a form it accepts
// again for the same instant.
import fc from "fast-check";
import { beforeAll, describe, expect, test } from "vitest";
import type { CliContext } from "../../../functions/project_cli/context.ts";
import { DATETIME_RANGE, datetimeProblem, MAX_OFFSET_MINUTES } from "../../../functions/project_cli/fields.ts";
import { runProjectCli, validateProjectCli } from "../../../functions/project_cli/router.ts";
import { clientAs, createUser } from "../../support/users.ts";

let ctx: CliContext;
beforeAll(async () => {
  const userId = await createUser("hostile");
  ctx = { db: await clientAs(userId), userId };
});

const create = (input: Record<string, unknown>) =>
  runProjectCli(
    { module: "calendar", method: "create", input: { title: "t", start_at: "2026-04-23T10:00:00Z", timezone: "UTC", ...input } },
    ctx,
  );

describe("refused before the database, field named", () => {
  test.each([
    ["title", { title: "a\u0000b" }],
    ["title", { title: "a\uD800b" }],
    ["description", { description: "x\u0000" }],
    ["metadata.location", { metadata: { location: "\uDFFF" } }],
    ["start_at", { start_at: "0000-01-01T00:00:00Z" }],
    ["start_at", { start_at: "0001-01-01T00:00:00Z" }],
    ["start_at", { start_at: "2026-04-23T10:00:00+25:00" }],
    ["start_at", { start_at: "2026-04-23T10:00:00+15:59" }],
    ["end_at", { end_at: "9999-12-31T23:59:59-14:00" }],
  ])("%s: %j", async (field, input) => {
    const result = await create(input);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("INVALID_ACTION_INPUT");
    expect(result.error.details.invalid_fields?.map((entry) => entry.field)).toContain(`input.${field}`);
  });

  test("a range read at the far end of the accepted dates answers, not INTERNAL", async () => {
    for (const date of ["1900-01-01", "9998-12-31"]) {
      for (const timezone of ["Pacific/Kiritimati", "Etc/GMT+12", "UTC"]) {
        const result = await runProjectCli({ module: "calendar", method: "read", input: { mode: "day", date, timezone } }, ctx);
        expect(result, JSON.stringify(result)).toMatchObject({ ok: true });
      }
    }
  });
});

describe("datetime round trip through the database", () => {
  const pad = (value: number) => String(value).padStart(2, "0");
  const accepted = fc
    .record({
      instant: fc.integer({ min: DATETIME_RANGE.min, max: DATETIME_RANGE.max - 1 }),
      offset: fc.integer({ min: -MAX_OFFSET_MINUTES, max: MAX_OFFSET_MINUTES }),
      zone: fc.constantFrom(...Intl.supportedValuesOf("timeZone"), "Africa/Monrovia", "Pacific/Chatham"),
    })
    .map(({ instant, offset, zone }) => {
      const local = new Date(instant + offset * 60_000).toISOString();
      const suffix =
        offset === 0 ? "Z" : `${offset > 0 ? "+" : "-"}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
      return { text: `${local.slice(0, local.endsWith(".000Z") ? 19 : 23)}${suffix}`, instant, zone };
    })
    .filter(({ instant }) => instant >= DATETIME_RANGE.min && instant < DATETIME_RANGE.max);

  test("200 generated datetimes: stored, shown in the event's zone, accepted again, same instant", async () => {
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(accepted, async ({ text, instant, zone }) => {
        expect(datetimeProblem(text), text).toBeUndefined();
        const created = await create({ start_at: text, timezone: zone });
        expect(created, JSON.stringify(created)).toMatchObject({ ok: true });
        if (!created.ok) return;
        const event = (created.data as { event: { id: string; start_at: string } }).event;
        expect(datetimeProblem(event.start_at), `${text} in ${zone} came back as ${event.start_at}`).toBeUndefined();
        expect(Date.parse(event.start_at)).toBe(instant);
        // The shown form is accepted as input again, by validation and by the database.
        const again = { module: "calendar", method: "update", input: { event_id: event.id, patch: { start_at: event.start_at } } };
        expect(validateProjectCli(again).ok).toBe(true);
        const updated = await runProjectCli(again, ctx);
        expect(updated, JSON.stringify(updated)).toMatchObject({ ok: true, data: { event: { start_at: event.start_at } } });
        checked++;
      }),
      { numRuns: 200 },
    );
    console.log(`datetime round trip through the database: ${checked} datetimes`);
  });
});
