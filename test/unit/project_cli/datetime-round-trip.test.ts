// Every datetime the tool accepts comes back in a form it accepts again, for the same instant:
// through the event view (zonedIso in the event's zone) and the local time helpers, over the
// whole accepted range and every time zone this runtime knows.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { DATE_RANGE, DATETIME_RANGE, dateProblem, datetimeProblem, MAX_OFFSET_MINUTES } from "../../../functions/project_cli/fields.ts";
import { type EventRow, toEventView } from "../../../functions/project_cli/modules/calendar/event-view.ts";
import { dayBounds, zonedIso } from "../../../functions/project_cli/time.ts";

const ZONES = Intl.supportedValuesOf("timeZone");
const zone = fc.constantFrom(...ZONES, "UTC", "Africa/Monrovia", "America/St_Johns", "Pacific/Kiritimati", "Pacific/Chatham");
const instant = fc.integer({ min: DATETIME_RANGE.min, max: DATETIME_RANGE.max - 1 });
const pad = (value: number, width = 2) => String(value).padStart(width, "0");

/** Any datetime in the accepted form: an instant, written at any offset within ±14:00, with 0-3 fraction digits. */
const acceptedDatetime = fc
  .record({ instant, offset: fc.integer({ min: -MAX_OFFSET_MINUTES, max: MAX_OFFSET_MINUTES }), digits: fc.integer({ min: 0, max: 3 }) })
  .map(({ instant: at, offset, digits }) => {
    const truncated = digits === 3 ? at : Math.floor(at / 10 ** (3 - digits)) * 10 ** (3 - digits);
    const local = new Date(truncated + offset * 60_000).toISOString();
    const fraction = digits === 0 ? "" : local.slice(19, 20 + digits);
    const suffix = offset === 0 ? "Z" : `${offset > 0 ? "+" : "-"}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
    return { text: `${local.slice(0, 19)}${fraction}${suffix}`, instant: truncated };
  })
  .filter(({ instant: at }) => at >= DATETIME_RANGE.min && at < DATETIME_RANGE.max);

/** How PostgREST returns a timestamptz in a UTC session: microseconds trimmed, +00:00. */
const asStored = (instantMs: number) =>
  new Date(instantMs)
    .toISOString()
    .replace(/\.000Z$/, "Z")
    .replace("Z", "+00:00");

const row = (start: string, timezone: string): EventRow => ({
  id: "a0000000-0000-4000-8000-000000000001",
  owner_id: "u",
  title: "t",
  description: null,
  start_at: start,
  end_at: start,
  timezone,
  status: "active",
  metadata: {},
  recurrence_rule: null,
  recurrence_exceptions: [],
  source_type: "agent",
  created_at: start,
  updated_at: start,
  schedule_subscriptions: [],
});

let checked = 0;
describe("datetime round trip", { timeout: 60_000 }, () => {
  test("zonedIso writes every instant of the range, in every zone, as an accepted datetime for the same instant", () => {
    fc.assert(
      fc.property(instant, zone, (at, timeZone) => {
        const written = zonedIso(new Date(at), timeZone);
        expect(datetimeProblem(written), `${timeZone} ${new Date(at).toISOString()} -> ${written}`).toBeUndefined();
        expect(Date.parse(written)).toBe(at);
        checked++;
      }),
      { numRuns: 5_000 },
    );
  });

  test("every accepted datetime, stored and shown in the event's zone, is accepted again for the same instant", () => {
    fc.assert(
      fc.property(acceptedDatetime, zone, ({ text, instant: at }, timeZone) => {
        expect(datetimeProblem(text), text).toBeUndefined();
        expect(Date.parse(text)).toBe(at);
        const view = toEventView(row(asStored(at), timeZone), "u");
        expect(datetimeProblem(view.start_at), `${text} in ${timeZone} -> ${view.start_at}`).toBeUndefined();
        expect(Date.parse(view.start_at)).toBe(at);
        checked++;
      }),
      { numRuns: 5_000 },
    );
  });

  test("every accepted date has day bounds that are accepted instants, the end after the start", () => {
    const date = fc
      .integer({ min: Date.parse(DATE_RANGE.min), max: Date.parse(DATE_RANGE.max) })
      .map((at) => new Date(at).toISOString().slice(0, 10));
    fc.assert(
      fc.property(date, zone, (day, timeZone) => {
        expect(dateProblem(day)).toBeUndefined();
        const { start, end } = dayBounds(day, timeZone);
        expect(end.getTime()).toBeGreaterThan(start.getTime());
        // The bounds go to PostgREST as toISOString(): they must stay four-digit years.
        for (const bound of [start, end]) expect(bound.toISOString()).toMatch(/^\d{4}-/);
        checked++;
      }),
      { numRuns: 3_000 },
    );
    console.log(`datetime round trip: ${checked} generated cases over ${ZONES.length} zones`);
  });
});
