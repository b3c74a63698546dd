// Calendar arithmetic in IANA time zones with nothing but Intl (no tz library on Workers).

// Building a formatter costs far more than using one; a Map (not an object: zone names come
// from callers) keeps one per zone, bounded by the number of zones Intl knows (~600).
const formatters = new Map<string, Intl.DateTimeFormat>();
export function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    if (formatters.size < 1_000) formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether Intl knows the zone. A known zone's formatter is kept, so asking again is a lookup. */
export function isTimeZone(timeZone: string): boolean {
  if (formatters.has(timeZone)) return true;
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

// The formatter's text, "MM/DD/YYYY, HH:MM:SS": reading it costs a third of formatToParts,
// which builds an object per field (calendar reads convert every occurrence they expand).
export const FORMATTED_LOCAL_TIME = /^(\d{2})\/(\d{2})\/(\d+), (\d{2}):(\d{2}):(\d{2})$/;

type LocalFields = [year: number, month: number, day: number, hour: number, minute: number, second: number];

/** Local year, month, day, hour, minute and second at `instant` in the formatter's zone. */
export function localFields(formatter: Intl.DateTimeFormat, instant: Date): LocalFields {
  const match = FORMATTED_LOCAL_TIME.exec(formatter.format(instant));
  if (match) return [match[3], match[1], match[2], match[4], match[5], match[6]].map(Number) as LocalFields;
  // Any other shape (another ICU's punctuation): the fields by name.
  const parts = formatter.formatToParts(instant);
  const field = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((part) => part.type === type)?.value);
  return [field("year"), field("month"), field("day"), field("hour"), field("minute"), field("second")];
}

/** The zone's offset from UTC at `instant`, in seconds (local mean times before standard time had odd seconds). */
export function offsetSeconds(instant: Date, timeZone: string): number {
  const [year, month, day, hour, minute, second] = localFields(formatterFor(timeZone), instant);
  // setUTCFullYear, unlike Date.UTC, does not turn years 0-99 into 1900-1999.
  const asUtc = new Date(0);
  asUtc.setUTCFullYear(year, month - 1, day);
  asUtc.setUTCHours(hour, minute, second);
  return Math.round((asUtc.getTime() - Math.floor(instant.getTime() / 1000) * 1000) / 1000);
}

/** The zone's offset from UTC at `instant`, in minutes (e.g. +480 for Asia/Shanghai); may be fractional. */
export function offsetMinutes(instant: Date, timeZone: string): number {
  return offsetSeconds(instant, timeZone) / 60;
}

export const DAY_MS = 86_400_000;

/** The local calendar date at `instant` in `timeZone`, as the UTC midnight of that date (ms). */
function localDateMs(instant: number, timeZone: string): number {
  const local = instant + offsetSeconds(new Date(instant), timeZone) * 1000;
  return local - (((local % DAY_MS) + DAY_MS) % DAY_MS);
}

/**
 * The instants at which the zone's clocks read `wall` (a local date and time written as if it
 * were UTC, in ms): `wall - offset` for each offset in force around it, earliest first, and
 * whether the zone really reads `wall` then. None is valid in a gap (clocks jumping forward);
 * two are where clocks pass the same time twice.
 */
function wallCandidates(wall: number, timeZone: string) {
  return [...new Set([-DAY_MS, 0, DAY_MS].map((shift) => offsetSeconds(new Date(wall + shift), timeZone)))]
    .map((offset) => ({ offset, instant: wall - offset * 1000 }))
    .map((candidate) => ({ ...candidate, valid: offsetSeconds(new Date(candidate.instant), timeZone) === candidate.offset }))
    .sort((a, b) => a.instant - b.instant);
}

/**
 * The first instant of the local day y-m-d in `timeZone`: its midnight, the earlier one if
 * the clocks pass midnight twice, or, where they skip midnight (DST starting at 00:00, as in
 * America/Santiago or America/Havana), the instant they jump, which the day's first local
 * minute follows.
 */
function dayStart(year: number, month: number, day: number, timeZone: string): Date {
  const wall = utcDate(year, month, day).getTime(); // y-m-d 00:00 read as if it were UTC
  const candidates = wallCandidates(wall, timeZone);
  const midnight = candidates.find((candidate) => candidate.valid);
  if (midnight) return new Date(midnight.instant);
  // No local midnight: the day starts at the transition between the candidates, the first
  // instant whose local date is this day. Transitions fall on whole seconds.
  let before = candidates[0]!.instant;
  let after = candidates.at(-1)!.instant;
  while (after - before > 1000) {
    const middle = before + Math.floor((after - before) / 2000) * 1000;
    if (localDateMs(middle, timeZone) >= wall) after = middle;
    else before = middle;
  }
  return new Date(after);
}

/** The zone's wall-clock reading at `instant`. */
export function localDateTime(instant: Date, timeZone: string) {
  const local = new Date(instant.getTime() + offsetSeconds(instant, timeZone) * 1000);
  return {
    y: local.getUTCFullYear(),
    m: local.getUTCMonth() + 1,
    d: local.getUTCDate(),
    h: local.getUTCHours(),
    mi: local.getUTCMinutes(),
    s: local.getUTCSeconds(),
  };
}

/**
 * The instant the zone's clocks read `date` (YYYY-MM-DD) at `time`. A time the clocks skip
 * (DST starting) is read with the offset in force before the jump, so it lands just after it,
 * as RFC 5545 reads such times; a time the clocks pass twice is the first.
 */
export function zonedInstant(date: string, time: { h: number; mi: number; s: number }, timeZone: string): Date {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const wall = utcDate(year, month, day).getTime() + ((time.h * 60 + time.mi) * 60 + time.s) * 1000;
  const candidates = wallCandidates(wall, timeZone);
  const valid = candidates.find((candidate) => candidate.valid);
  if (valid) return new Date(valid.instant);
  return new Date(wall - offsetSeconds(new Date(wall - DAY_MS), timeZone) * 1000);
}

/** Midnight UTC of y-m-d; the day may overflow into the next month. Years 0-99 stay as written. */
export function utcDate(year: number, month: number, day: number): Date {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date;
}

/** [start, end) of the calendar day `date` (YYYY-MM-DD) in `timeZone`. */
export function dayBounds(date: string, timeZone: string): { start: Date; end: Date } {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const next = utcDate(year, month, day + 1);
  return {
    start: dayStart(year, month, day, timeZone),
    end: dayStart(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), timeZone),
  };
}

/**
 * `instant` written in the zone's local time with its offset: 2026-04-23T16:00:00+08:00, with
 * milliseconds only when there are any. The result is always a datetime the tool accepts
 * again for the same instant: an offset that is not whole minutes (a local mean time, e.g.
 * Africa/Monrovia until 1972) cannot be written as ±HH:MM (nor one beyond ±14:00, which the tool refuses), so such
 * instants are written in UTC.
 */
export function zonedIso(instant: Date, timeZone: string): string {
  const seconds = offsetSeconds(instant, timeZone);
  const offset = seconds % 60 === 0 && Math.abs(seconds) <= 14 * 3600 ? seconds / 60 : 0;
  const iso = new Date(instant.getTime() + offset * 60_000).toISOString();
  const local = iso.slice(0, iso.endsWith(".000Z") ? 19 : 23);
  if (offset === 0) return `${local}Z`;
  const sign = offset > 0 ? "+" : "-";
  const abs = Math.abs(offset);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

const WEEKDAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;

/** The day of the week the zone's clocks show at `instant`, in English (e.g. "Monday"). */
export function weekdayIn(instant: Date, timeZone: string): string {
  return WEEKDAY_NAMES[new Date(instant.getTime() + offsetSeconds(instant, timeZone) * 1000).getUTCDay()]!;
}
