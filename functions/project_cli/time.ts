// Calendar arithmetic in IANA time zones with nothing but Intl (no tz library on Workers).

// Building a formatter costs far more than using one; a Map (not an object: zone names come
// from callers) keeps one per zone, bounded by the number of zones Intl knows (~600).
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timeZone: string): Intl.DateTimeFormat {
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

/** The zone's offset from UTC at `instant`, in seconds (local mean times before standard time had odd seconds). */
export function offsetSeconds(instant: Date, timeZone: string): number {
  const parts = formatterFor(timeZone).formatToParts(instant);
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  // setUTCFullYear, unlike Date.UTC, does not turn years 0-99 into 1900-1999.
  const asUtc = new Date(0);
  asUtc.setUTCFullYear(get("year"), get("month") - 1, get("day"));
  asUtc.setUTCHours(get("hour"), get("minute"), get("second"));
  return Math.round((asUtc.getTime() - Math.floor(instant.getTime() / 1000) * 1000) / 1000);
}

/** The zone's offset from UTC at `instant`, in minutes (e.g. +480 for Asia/Shanghai); may be fractional. */
export function offsetMinutes(instant: Date, timeZone: string): number {
  return offsetSeconds(instant, timeZone) / 60;
}

/** The instant at which the local wall-clock time `y-m-d 00:00` happens in `timeZone`. */
function localMidnight(year: number, month: number, day: number, timeZone: string): Date {
  const guess = utcDate(year, month, day).getTime();
  // Two passes settle the offset even when midnight is near a DST change.
  let instant = guess - offsetSeconds(new Date(guess), timeZone) * 1000;
  instant = guess - offsetSeconds(new Date(instant), timeZone) * 1000;
  return new Date(instant);
}

/** Midnight UTC of y-m-d; the day may overflow into the next month. Years 0-99 stay as written. */
function utcDate(year: number, month: number, day: number): Date {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date;
}

/** [start, end) of the calendar day `date` (YYYY-MM-DD) in `timeZone`. */
export function dayBounds(date: string, timeZone: string): { start: Date; end: Date } {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const next = utcDate(year, month, day + 1);
  return {
    start: localMidnight(year, month, day, timeZone),
    end: localMidnight(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), timeZone),
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
