import { describe, expect, test } from "vitest";
import { dayBounds, offsetMinutes, zonedIso } from "../../../functions/project_cli/time.ts";

describe("dayBounds", () => {
  test("a day in Asia/Shanghai starts at 16:00 UTC the day before", () => {
    const { start, end } = dayBounds("2026-04-23", "Asia/Shanghai");
    expect(start.toISOString()).toBe("2026-04-22T16:00:00.000Z");
    expect(end.toISOString()).toBe("2026-04-23T16:00:00.000Z");
  });

  test("the day DST starts in New York lasts 23 hours", () => {
    const { start, end } = dayBounds("2026-03-08", "America/New_York");
    expect(start.toISOString()).toBe("2026-03-08T05:00:00.000Z");
    expect((end.getTime() - start.getTime()) / 3_600_000).toBe(23);
  });

  test("the day DST ends in New York lasts 25 hours", () => {
    const { start, end } = dayBounds("2026-11-01", "America/New_York");
    expect((end.getTime() - start.getTime()) / 3_600_000).toBe(25);
  });

  test("month and year ends roll over", () => {
    expect(dayBounds("2026-12-31", "UTC").end.toISOString()).toBe("2027-01-01T00:00:00.000Z");
  });
});

describe("zonedIso", () => {
  test("writes local time with the zone's offset", () => {
    expect(zonedIso(new Date("2026-04-23T08:00:00Z"), "Asia/Shanghai")).toBe("2026-04-23T16:00:00+08:00");
    expect(zonedIso(new Date("2026-04-23T08:00:00Z"), "America/St_Johns")).toBe("2026-04-23T05:30:00-02:30");
    expect(zonedIso(new Date("2026-04-23T08:00:00Z"), "UTC")).toBe("2026-04-23T08:00:00Z");
  });

  test("offsetMinutes follows DST", () => {
    expect(offsetMinutes(new Date("2026-01-15T12:00:00Z"), "Europe/Berlin")).toBe(60);
    expect(offsetMinutes(new Date("2026-07-15T12:00:00Z"), "Europe/Berlin")).toBe(120);
  });
});
