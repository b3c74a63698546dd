// Repeating events through project_cli on the real database: day and range reads expand the
// series into occurrences (in the event's zone, across DST), one occurrence can be removed
// without the series, one occurrence cannot be edited on its own (refused with the way to do
// it), and rules outside the subset are refused when written and harmless when found stored.
import { beforeEach, describe, expect, test } from "vitest";
import { type CliCaller, cliAs } from "../../support/project-cli.ts";
import { clientAs, createUser } from "../../support/users.ts";

let me: CliCaller;
let other: CliCaller;

beforeEach(async () => {
  [me, other] = await Promise.all([createUser("repeat").then(cliAs), createUser("repeat-other").then(cliAs)]);
});

/** A Monday standup in Berlin from 16 March 2026, the last Monday before clocks go forward. */
const standup = (overrides: Record<string, unknown> = {}) =>
  me.ok("calendar", "create", {
    title: "Standup",
    start_at: "2026-03-16T09:00:00+01:00",
    end_at: "2026-03-16T09:15:00+01:00",
    timezone: "Europe/Berlin",
    recurrence_rule: "FREQ=WEEKLY;BYDAY=MO",
    ...overrides,
  });

const titlesAndStarts = (items: Array<{ title: string; start_at: string }>) => items.map((item) => `${item.title} ${item.start_at}`);

describe("reads expand repeating events", () => {
  test("every Monday shows on every Monday, at 09:00 local across the DST change, with the series id", async () => {
    const { event } = await standup();
    const day = await me.ok("calendar", "read", { mode: "day", date: "2026-03-30", timezone: "Europe/Berlin" });
    expect(day.items).toEqual([
      expect.objectContaining({
        id: event.id,
        title: "Standup",
        start_at: "2026-03-30T09:00:00+02:00",
        end_at: "2026-03-30T09:15:00+02:00",
        recurrence_rule: "FREQ=WEEKLY;BYDAY=MO",
        occurrence: { series_start_at: "2026-03-16T09:00:00+01:00" },
      }),
    ]);
    expect(await me.ok("calendar", "read", { mode: "day", date: "2026-03-31", timezone: "Europe/Berlin" })).toMatchObject({ count: 0 });
  });

  test("a range mixes occurrences and one-off events in start order", async () => {
    await standup();
    await me.ok("calendar", "create", { title: "Dentist", start_at: "2026-03-24T08:00:00+01:00", timezone: "Europe/Berlin" });
    const range = await me.ok("calendar", "read", {
      mode: "range",
      start_at: "2026-03-20T00:00:00+01:00",
      end_at: "2026-04-07T00:00:00+02:00",
    });
    expect(titlesAndStarts(range.items)).toEqual([
      "Standup 2026-03-23T09:00:00+01:00",
      "Dentist 2026-03-24T08:00:00+01:00",
      "Standup 2026-03-30T09:00:00+02:00",
      "Standup 2026-04-06T09:00:00+02:00",
    ]);
    const cut = await me.ok("calendar", "read", {
      mode: "range",
      start_at: "2026-03-20T00:00:00+01:00",
      end_at: "2026-04-07T00:00:00+02:00",
      limit: 2,
    });
    expect(cut).toMatchObject({ count: 2, truncated: true });
  });

  test("COUNT ends the series; another user's series never shows", async () => {
    await standup({ recurrence_rule: "FREQ=WEEKLY;BYDAY=MO;COUNT=2" });
    await other.ok("calendar", "create", {
      title: "Theirs",
      start_at: "2026-03-16T09:00:00+01:00",
      timezone: "Europe/Berlin",
      recurrence_rule: "FREQ=DAILY",
    });
    const range = await me.ok("calendar", "read", { mode: "range", start_at: "2026-03-01T00:00:00Z", end_at: "2026-05-01T00:00:00Z" });
    expect(titlesAndStarts(range.items)).toEqual(["Standup 2026-03-16T09:00:00+01:00", "Standup 2026-03-23T09:00:00+01:00"]);
  });
});

describe("one occurrence or the whole series", () => {
  test("deleting one occurrence keeps the others; deleting without occurrence_start removes the series", async () => {
    const { event } = await standup();
    const removed = await me.ok("calendar", "delete", { event_id: event.id, occurrence_start: "2026-03-30T09:00:00+02:00" });
    expect(removed).toEqual({ deleted: { id: event.id, title: "Standup", occurrence_start: "2026-03-30T09:00:00+02:00" } });
    // Twice is the same as once.
    await me.ok("calendar", "delete", { event_id: event.id, occurrence_start: "2026-03-30T07:00:00Z" });
    const range = await me.ok("calendar", "read", { mode: "range", start_at: "2026-03-20T00:00:00Z", end_at: "2026-04-07T00:00:00Z" });
    expect(range.items.map((item: { start_at: string }) => item.start_at)).toEqual([
      "2026-03-23T09:00:00+01:00",
      "2026-04-06T09:00:00+02:00",
    ]);
    await me.ok("calendar", "delete", { event_id: event.id });
    expect(
      await me.ok("calendar", "read", { mode: "range", start_at: "2026-03-20T00:00:00Z", end_at: "2026-04-07T00:00:00Z" }),
    ).toMatchObject({ count: 0 });
  });

  test("an occurrence_start that is not an occurrence, or on a one-off event, is refused with guidance", async () => {
    const { event } = await standup();
    expect(await me.fail("calendar", "delete", { event_id: event.id, occurrence_start: "2026-03-31T09:00:00+02:00" })).toMatchObject({
      code: "INVALID_ACTION_INPUT",
      details: { invalid_fields: [{ field: "input.occurrence_start" }], suggestion: expect.stringContaining("calendar.read") },
    });
    const once = await me.ok("calendar", "create", { title: "Once", start_at: "2026-03-31T09:00:00+02:00", timezone: "Europe/Berlin" });
    expect(await me.fail("calendar", "delete", { event_id: once.event.id, occurrence_start: "2026-03-31T09:00:00+02:00" })).toMatchObject({
      code: "INVALID_ACTION_INPUT",
      message: "this event does not repeat",
    });
  });

  test("a viewer cannot remove an occurrence; a stranger cannot find the series", async () => {
    const { event } = await standup();
    await me.ok("calendar", "share", { event_id: event.id, invitee: { user_id: other.userId }, permissions: { view: true } });
    const input = { event_id: event.id, occurrence_start: "2026-03-30T09:00:00+02:00" };
    expect(await other.fail("calendar", "delete", input)).toMatchObject({ code: "NOT_FOUND" });
    await other.ok("calendar", "accept_invite", { event_id: event.id });
    expect(await other.fail("calendar", "delete", input)).toMatchObject({ code: "FORBIDDEN" });
    expect(await me.ok("calendar", "read", { mode: "day", date: "2026-03-30", timezone: "Europe/Berlin" })).toMatchObject({ count: 1 });
  });

  test("editing one occurrence is refused, saying how; editing the series changes every occurrence", async () => {
    const { event } = await standup();
    const refused = await me.fail("calendar", "update", {
      event_id: event.id,
      occurrence_start: "2026-03-30T09:00:00+02:00",
      patch: { start_at: "2026-03-30T10:00:00+02:00" },
    });
    expect(refused).toMatchObject({ code: "INVALID_ACTION_INPUT", details: { suggestion: expect.stringContaining("calendar.delete") } });
    await me.ok("calendar", "update", { event_id: event.id, patch: { title: "Team standup" } });
    const range = await me.ok("calendar", "read", { mode: "range", start_at: "2026-03-20T00:00:00Z", end_at: "2026-04-07T00:00:00Z" });
    expect(range.items.map((item: { title: string }) => item.title)).toEqual(["Team standup", "Team standup", "Team standup"]);
  });
});

describe("rules outside the subset", () => {
  test("are refused when written, naming what is supported", async () => {
    const error = await me.fail("calendar", "create", {
      title: "Payday",
      start_at: "2026-03-15T09:00:00Z",
      timezone: "UTC",
      recurrence_rule: "FREQ=MONTHLY;BYMONTHDAY=15,-1",
    });
    expect(error).toMatchObject({ code: "INVALID_ACTION_INPUT", details: { invalid_fields: [{ field: "input.recurrence_rule" }] } });
    expect(JSON.stringify(error)).toContain("BYMONTHDAY is not supported");
    expect(JSON.stringify(error)).toContain("supported: FREQ (DAILY, WEEKLY, MONTHLY, YEARLY)");
  });

  test("found stored (written by another client), read as the first occurrence, never an error", async () => {
    const { event } = await standup();
    const db = await clientAs(me.userId);
    for (const rule of ["FREQ=SECONDLY", "FREQ=WEEKLY;BYDAY=XX", "not a rule at all"]) {
      expect((await db.from("schedule_items").update({ recurrence_rule: rule }).eq("id", event.id)).error).toBeNull();
      const first = await me.ok("calendar", "read", { mode: "day", date: "2026-03-16", timezone: "Europe/Berlin" });
      expect(first.items).toEqual([
        expect.objectContaining({ id: event.id, start_at: "2026-03-16T09:00:00+01:00", recurrence_rule: rule }),
      ]);
      expect(await me.ok("calendar", "read", { mode: "day", date: "2026-03-30", timezone: "Europe/Berlin" })).toMatchObject({ count: 0 });
    }
  });
});
