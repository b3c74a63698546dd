import { describe, expect, test } from "vitest";
import {
  dayBounds,
  FORMATTED_LOCAL_TIME,
  formatterFor,
  isTimeZone,
  localFields,
  offsetMinutes,
  offsetSeconds,
  weekdayIn,
  zonedIso,
} from "../../../functions/project_cli/time.ts";

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

describe("isTimeZone", () => {
  test("knows every zone Intl lists, and UTC", () => {
    for (const zone of ["UTC", ...Intl.supportedValuesOf("timeZone")]) expect(isTimeZone(zone), zone).toBe(true);
  });

  test("refuses what Intl does not know, however often it is asked (the kept formatters are for known zones only)", () => {
    for (let i = 0; i < 3; i++)
      for (const zone of ["Mars/Base", "../../etc", "", "Asia/Shanghai ", "constructor", "__proto__"])
        expect(isTimeZone(zone), zone).toBe(false);
    expect(isTimeZone("Asia/Shanghai")).toBe(true);
  });
});

describe("weekdayIn", () => {
  test("agrees with Intl in every zone, on both sides of local midnight", () => {
    const instants = ["2026-04-23T20:30:00Z", "2026-04-23T03:00:00Z", "2026-12-31T23:59:59Z", "1900-01-01T12:00:00Z"].map(
      (iso) => new Date(iso),
    );
    for (const zone of ["UTC", ...Intl.supportedValuesOf("timeZone")])
      for (const instant of instants)
        expect(weekdayIn(instant, zone), `${zone} ${instant.toISOString()}`).toBe(
          new Intl.DateTimeFormat("en-US", { timeZone: zone, weekday: "long" }).format(instant),
        );
  });
});

describe("offsetSeconds", () => {
  const ZONES = ["UTC", ...Intl.supportedValuesOf("timeZone")];
  const INSTANTS = [
    "0050-06-01T12:00:00Z",
    "1000-01-01T00:00:00Z",
    "1900-01-01T00:00:00Z",
    "1970-01-01T00:00:00Z",
    "2026-01-15T08:30:00Z",
    "2026-07-15T23:59:59Z",
    "2300-03-01T00:00:01Z",
  ].map((iso) => new Date(iso));
  /** The offset from the formatter's fields by name, as offsetSeconds read it before it read the formatter's text. */
  function byName(instant: Date, zone: string): number {
    const parts = formatterFor(zone).formatToParts(instant);
    const get = (type: string) => Number(parts.find((part) => part.type === type)?.value);
    const asUtc = new Date(0);
    asUtc.setUTCFullYear(get("year"), get("month") - 1, get("day"));
    asUtc.setUTCHours(get("hour"), get("minute"), get("second"));
    return Math.round((asUtc.getTime() - Math.floor(instant.getTime() / 1000) * 1000) / 1000);
  }

  test("reads the same offset from the formatter's text as from its fields, in every zone, from year 50 to 2300", () => {
    for (const zone of ZONES)
      for (const instant of INSTANTS) {
        expect(formatterFor(zone).format(instant), zone).toMatch(FORMATTED_LOCAL_TIME);
        expect(offsetSeconds(instant, zone), `${zone} ${instant.toISOString()}`).toBe(byName(instant, zone));
      }
  });

  test("a formatter whose text has another shape is read field by field, with the same result", () => {
    const instant = new Date("2026-04-23T20:34:56Z");
    // The same fields and zone, written the German way: "24.04.2026, 04:34:56".
    const german = new Intl.DateTimeFormat("de-DE", formatterFor("Asia/Shanghai").resolvedOptions() as Intl.DateTimeFormatOptions);
    expect(german.format(instant)).not.toMatch(FORMATTED_LOCAL_TIME);
    expect(localFields(german, instant)).toEqual([2026, 4, 24, 4, 34, 56]);
    expect(localFields(formatterFor("Asia/Shanghai"), instant)).toEqual([2026, 4, 24, 4, 34, 56]);
  });
});
