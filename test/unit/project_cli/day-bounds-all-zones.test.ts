// Day reads must cover exactly the local calendar day in every zone, including the days whose
// clocks change, and those where they change at midnight (America/Santiago, America/Havana,
// and many zones in earlier years). For every IANA zone Intl knows, every offset change from
// 1970 to 2037 is found by scanning, and the local days around it are checked; random days in
// random zones are checked too.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { dayBounds, offsetSeconds } from "../../../functions/project_cli/time.ts";

const DAY_MS = 86_400_000;
const ZONES = ["UTC", ...Intl.supportedValuesOf("timeZone")];

/** The local date at `instant` in `zone`, as YYYY-MM-DD. */
const localDate = (instant: number, zone: string) =>
  new Date(instant + offsetSeconds(new Date(instant), zone) * 1000).toISOString().slice(0, 10);
const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

/** What must hold for the day: it starts on that date, the second before is an earlier day, it ends where the next begins. */
function checkDay(date: string, zone: string) {
  const { start, end } = dayBounds(date, zone);
  const where = `${date} in ${zone}: [${start.toISOString()}, ${end.toISOString()})`;
  expect(localDate(start.getTime(), zone), where).toBe(date);
  expect(localDate(start.getTime() - 1000, zone) < date, `${where}: the second before is not an earlier day`).toBe(true);
  expect(localDate(end.getTime() - 1000, zone), `${where}: its last second`).toBe(date);
  expect(end.getTime(), where).toBe(dayBounds(nextDay(date), zone).start.getTime());
}

/** Every instant from 1970 to 2037 at which the zone's offset changes (scanned weekly, then to the second). */
function transitions(zone: string): number[] {
  const found: number[] = [];
  let before = Date.UTC(1970, 0, 1);
  let offset = offsetSeconds(new Date(before), zone);
  for (let at = before + 7 * DAY_MS; at < Date.UTC(2038, 0, 1); at += 7 * DAY_MS) {
    const now = offsetSeconds(new Date(at), zone);
    if (now !== offset) {
      let [lo, hi] = [before, at];
      while (hi - lo > 1000) {
        const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
        if (offsetSeconds(new Date(mid), zone) === offset) lo = mid;
        else hi = mid;
      }
      found.push(hi);
      offset = now;
    }
    before = at;
  }
  return found;
}

describe("dayBounds in every zone", () => {
  test("the days around every offset change from 1970 to 2037 start and end where the local date does", () => {
    let days = 0;
    let changes = 0;
    let atMidnight = 0;
    for (const zone of ZONES) {
      for (const change of transitions(zone)) {
        changes++;
        const localBefore = localDate(change - 1000, zone);
        const localAfter = localDate(change, zone);
        if (localBefore !== localAfter) atMidnight++;
        for (const date of new Set([localBefore, localAfter, nextDay(localAfter)])) {
          checkDay(date, zone);
          days++;
        }
      }
    }
    console.log(`day bounds: ${ZONES.length} zones, ${changes} offset changes (${atMidnight} across midnight), ${days} days checked`);
    expect(atMidnight).toBeGreaterThan(0);
  }, 120_000);

  test("random days in random zones", () => {
    const date = fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2100, 0, 1) }).map((at) => new Date(at).toISOString().slice(0, 10));
    fc.assert(
      fc.property(date, fc.constantFrom(...ZONES), (day, zone) => checkDay(day, zone)),
      { numRuns: 5_000 },
    );
  });

  test("the days named in the issue start at the day's first local instant", () => {
    // Chile's DST starts at 00:00 on the first Sunday of September: there is no 00:00 that day.
    expect(dayBounds("2026-09-06", "America/Santiago").start.toISOString()).toBe("2026-09-06T04:00:00.000Z");
    // Cuba's DST starts at 00:00 on the second Sunday of March.
    expect(dayBounds("2026-03-08", "America/Havana").start.toISOString()).toBe("2026-03-08T05:00:00.000Z");
    // When Chile's DST ends, 00:00 on April 5 turns back into 23:00 on April 4: the day starts at the second 00:00.
    expect(dayBounds("2026-04-05", "America/Santiago").start.toISOString()).toBe("2026-04-05T04:00:00.000Z");
  });
});
