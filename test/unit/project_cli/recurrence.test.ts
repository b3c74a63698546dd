// The RRULE subset: what is accepted, what is refused and how, and occurrences in the event's
// zone (local wall time kept across DST, real duration kept, COUNT/UNTIL/INTERVAL/BYDAY).
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { expand, parseRecurrence, type Recurrence, WEEKDAYS } from "../../../functions/project_cli/recurrence.ts";
import { localDateTime, zonedIso } from "../../../functions/project_cli/time.ts";

const rule = (text: string): Recurrence => {
  const parsed = parseRecurrence(text);
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.rule;
};
const HOUR = 3_600_000;
const starts = (text: string, series: { start: string; zone: string; durationMs?: number | null }, from: string, to: string, limit = 100) =>
  expand(
    rule(text),
    { start: new Date(series.start), durationMs: series.durationMs === undefined ? HOUR : series.durationMs, timeZone: series.zone },
    { from: new Date(from), to: new Date(to), limit },
  ).map((o) => zonedIso(o.start, series.zone));

describe("parseRecurrence", () => {
  test.each([
    "FREQ=DAILY",
    "RRULE:FREQ=WEEKLY;BYDAY=MO",
    "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;WKST=MO",
    "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR;COUNT=10",
    "FREQ=MONTHLY;BYDAY=-1FR;UNTIL=20271231",
    "FREQ=MONTHLY;BYDAY=2TU,4TU",
    "FREQ=YEARLY;UNTIL=20300101T000000Z",
  ])("accepts %s", (text) => expect(parseRecurrence(text).ok).toBe(true));

  test.each([
    ["FREQ=HOURLY", "FREQ must be"],
    ["FREQ=WEEKLY;BYMONTHDAY=1", "BYMONTHDAY is not supported"],
    ["FREQ=DAILY;COUNT=3;UNTIL=20270101", "COUNT and UNTIL"],
    ["FREQ=WEEKLY;BYDAY=2MO", "needs FREQ=MONTHLY"],
    ["FREQ=YEARLY;BYDAY=MO", "not supported with FREQ=YEARLY"],
    ["FREQ=DAILY;INTERVAL=0", "INTERVAL"],
    ["FREQ=DAILY;COUNT=5000", "COUNT"],
    ["FREQ=DAILY;UNTIL=20270230", "UNTIL"],
    ["FREQ=WEEKLY;WKST=SU", "WKST=MO"],
    ["FREQ=DAILY;FREQ=DAILY", "twice"],
  ])("refuses %s, saying what is supported", (text, problem) => {
    const parsed = parseRecurrence(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.problem).toContain(problem);
      expect(parsed.problem).toContain("supported: FREQ (DAILY, WEEKLY, MONTHLY, YEARLY)");
    }
  });
});

describe("expand", () => {
  test("a Monday standup stays at 09:00 local across the DST change, an hour long", () => {
    const series = { start: "2026-03-16T09:00:00+01:00", zone: "Europe/Berlin" };
    expect(starts("FREQ=WEEKLY;BYDAY=MO", series, "2026-03-20T00:00:00Z", "2026-04-07T00:00:00Z")).toEqual([
      "2026-03-23T09:00:00+01:00",
      "2026-03-30T09:00:00+02:00",
      "2026-04-06T09:00:00+02:00",
    ]);
    const [first] = expand(
      rule("FREQ=WEEKLY"),
      { start: new Date(series.start), durationMs: HOUR, timeZone: series.zone },
      {
        from: new Date("2026-03-30T00:00:00Z"),
        to: new Date("2026-03-31T00:00:00Z"),
        limit: 5,
      },
    );
    expect(first!.end!.getTime() - first!.start.getTime()).toBe(HOUR);
  });

  test("COUNT counts from the series' start, whatever the window", () => {
    const series = { start: "2026-05-01T08:00:00Z", zone: "UTC" };
    expect(starts("FREQ=DAILY;COUNT=5", series, "2026-05-04T00:00:00Z", "2026-06-01T00:00:00Z")).toEqual([
      "2026-05-04T08:00:00Z",
      "2026-05-05T08:00:00Z",
    ]);
  });

  test("UNTIL as a date includes that whole local day", () => {
    const series = { start: "2026-05-01T23:30:00+08:00", zone: "Asia/Shanghai" };
    expect(starts("FREQ=DAILY;UNTIL=20260503", series, "2026-04-01T00:00:00Z", "2026-06-01T00:00:00Z")).toEqual([
      "2026-05-01T23:30:00+08:00",
      "2026-05-02T23:30:00+08:00",
      "2026-05-03T23:30:00+08:00",
    ]);
  });

  test("weekdays only; every other week on Monday and Wednesday", () => {
    const monday = { start: "2026-06-01T10:00:00Z", zone: "UTC" };
    expect(starts("FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR", monday, "2026-06-05T00:00:00Z", "2026-06-09T00:00:00Z")).toEqual([
      "2026-06-05T10:00:00Z",
      "2026-06-08T10:00:00Z",
    ]);
    expect(starts("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE", monday, "2026-06-01T00:00:00Z", "2026-06-30T00:00:00Z")).toEqual([
      "2026-06-01T10:00:00Z",
      "2026-06-03T10:00:00Z",
      "2026-06-15T10:00:00Z",
      "2026-06-17T10:00:00Z",
      "2026-06-29T10:00:00Z",
    ]);
  });

  test("monthly: the 31st skips shorter months; the last Friday; yearly Feb 29 only in leap years", () => {
    const end = { start: "2026-01-31T12:00:00Z", zone: "UTC" };
    expect(starts("FREQ=MONTHLY", end, "2026-01-01T00:00:00Z", "2026-06-01T00:00:00Z")).toEqual([
      "2026-01-31T12:00:00Z",
      "2026-03-31T12:00:00Z",
      "2026-05-31T12:00:00Z",
    ]);
    const friday = { start: "2026-01-30T16:00:00Z", zone: "UTC" };
    expect(starts("FREQ=MONTHLY;BYDAY=-1FR", friday, "2026-01-01T00:00:00Z", "2026-04-01T00:00:00Z")).toEqual([
      "2026-01-30T16:00:00Z",
      "2026-02-27T16:00:00Z",
      "2026-03-27T16:00:00Z",
    ]);
    const leap = { start: "2028-02-29T09:00:00Z", zone: "UTC" };
    expect(starts("FREQ=YEARLY", leap, "2028-01-01T00:00:00Z", "2037-01-01T00:00:00Z")).toEqual([
      "2028-02-29T09:00:00Z",
      "2032-02-29T09:00:00Z",
      "2036-02-29T09:00:00Z",
    ]);
  });

  test("skipped occurrences are left out; an event with no end shows where it starts inside the window", () => {
    const series = {
      start: new Date("2026-05-01T08:00:00Z"),
      durationMs: null,
      timeZone: "UTC",
      exceptions: [Date.parse("2026-05-02T08:00:00Z")],
    };
    const found = expand(rule("FREQ=DAILY"), series, {
      from: new Date("2026-05-01T09:00:00Z"),
      to: new Date("2026-05-04T00:00:00Z"),
      limit: 10,
    });
    expect(found.map((o) => o.start.toISOString())).toEqual(["2026-05-03T08:00:00.000Z"]);
    expect(found[0]!.end).toBeNull();
  });

  test("a daily series from long ago, read two centuries later, skips to the window", () => {
    // 73,000 days: beyond the expansion's bound on periods, so walking them one by one would find nothing.
    const series = { start: "1900-01-01T07:00:00Z", zone: "UTC" };
    expect(starts("FREQ=DAILY", series, "2100-06-01T00:00:00Z", "2100-06-03T00:00:00Z")).toEqual([
      "2100-06-01T07:00:00Z",
      "2100-06-02T07:00:00Z",
    ]);
    expect(starts("FREQ=WEEKLY;INTERVAL=3;BYDAY=TU", series, "2100-06-01T00:00:00Z", "2100-07-01T00:00:00Z")).toHaveLength(2);
  });

  test("property: occurrences keep the series' local time and weekday rules, in order, within the window and COUNT", () => {
    const zones = [
      "UTC",
      "Europe/Berlin",
      "America/New_York",
      "America/Santiago",
      "Asia/Shanghai",
      "Australia/Lord_Howe",
      "Asia/Kathmandu",
    ];
    const arbitrary = fc.record({
      zone: fc.constantFrom(...zones),
      startMs: fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }),
      freq: fc.constantFrom("DAILY", "WEEKLY", "MONTHLY", "YEARLY"),
      interval: fc.integer({ min: 1, max: 4 }),
      days: fc.subarray([...WEEKDAYS], { minLength: 1 }),
      count: fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined }),
      windowOffsetDays: fc.integer({ min: -10, max: 800 }),
      windowDays: fc.integer({ min: 1, max: 92 }),
    });
    fc.assert(
      fc.property(arbitrary, (c) => {
        const byDay = c.freq === "DAILY" || c.freq === "WEEKLY" ? `;BYDAY=${c.days.join(",")}` : "";
        const text = `FREQ=${c.freq};INTERVAL=${c.interval}${byDay}${c.count ? `;COUNT=${c.count}` : ""}`;
        const start = new Date(Math.floor(c.startMs / 60_000) * 60_000);
        const from = new Date(start.getTime() + c.windowOffsetDays * 86_400_000);
        const to = new Date(from.getTime() + c.windowDays * 86_400_000);
        const found = expand(rule(text), { start, durationMs: HOUR, timeZone: c.zone }, { from, to, limit: 500 });
        const local = localDateTime(start, c.zone);
        let previous = -Infinity;
        for (const o of found) {
          expect(o.start.getTime()).toBeGreaterThan(previous);
          previous = o.start.getTime();
          expect(o.start.getTime()).toBeGreaterThanOrEqual(start.getTime());
          expect(o.start.getTime()).toBeLessThan(to.getTime());
          expect(o.end!.getTime()).toBeGreaterThan(from.getTime());
          const at = localDateTime(o.start, c.zone);
          // The series' wall time, unless the clocks skipped it that day (then just after the jump).
          if (at.h !== local.h || at.mi !== local.mi)
            expect(Math.abs(at.h * 60 + at.mi - (local.h * 60 + local.mi))).toBeLessThanOrEqual(60);
          if (byDay) expect(c.days).toContain(WEEKDAYS[(new Date(Date.UTC(at.y, at.m - 1, at.d)).getUTCDay() + 6) % 7]);
        }
        if (c.count) expect(found.length).toBeLessThanOrEqual(c.count);
      }),
      { numRuns: 400 },
    );
  });
});
