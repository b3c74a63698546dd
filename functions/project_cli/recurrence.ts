// Repeating events: the RRULE subset the calendar supports (RFC 5545), parsed into a rule and
// expanded into occurrences in the event's own zone. Occurrences keep the series' local wall
// time across DST changes (a 09:00 standup stays at 09:00) and its duration in real time.
//
// Supported: FREQ=DAILY|WEEKLY|MONTHLY|YEARLY, INTERVAL, COUNT or UNTIL, BYDAY (weekdays for
// DAILY and WEEKLY; optionally with an ordinal for MONTHLY, e.g. 2TU, -1FR), WKST=MO. Anything
// else is refused when written, with what is supported; a stored rule outside the subset is
// not expanded (the event reads as its first occurrence). Hand-written rather than the `rrule`
// package: the subset is small, and the Worker's bundle has no room for a general library
// (docs/performance.md).
import { DAY_MS, localDateTime, offsetSeconds, utcDate, zonedInstant } from "./time.ts";

export const WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const FREQUENCIES = ["DAILY", "WEEKLY", "MONTHLY", "YEARLY"] as const;
export const MAX_COUNT = 1000;
export const MAX_INTERVAL = 999;
export const SUPPORTED_RULE_PARTS =
  "FREQ (DAILY, WEEKLY, MONTHLY, YEARLY), INTERVAL, COUNT or UNTIL, BYDAY (weekdays for DAILY and WEEKLY; 1MO..5MO or -1MO for MONTHLY), WKST=MO";

export interface Recurrence {
  freq: (typeof FREQUENCIES)[number];
  interval: number;
  /** Weekdays; an ordinal (1..5, -1..-5) only for MONTHLY. */
  byDay?: Array<{ day: Weekday; ordinal?: number }>;
  count?: number;
  /** The last instant an occurrence may start at (inclusive); a date-only UNTIL is resolved in the event's zone by `expand`. */
  until?: { instant: Date } | { date: string };
}

export type ParsedRecurrence = { ok: true; rule: Recurrence } | { ok: false; problem: string };

const refuse = (problem: string): ParsedRecurrence => ({ ok: false, problem: `${problem}; supported: ${SUPPORTED_RULE_PARTS}` });

export function parseRecurrence(text: string): ParsedRecurrence {
  const body = text.startsWith("RRULE:") ? text.slice(6) : text;
  const parts = new Map<string, string>();
  for (const part of body.split(";")) {
    const [key, value, ...rest] = part.split("=");
    if (!key || value === undefined || value === "" || rest.length > 0) return refuse(`"${part}" is not KEY=VALUE`);
    if (parts.has(key)) return refuse(`${key} is given twice`);
    parts.set(key, value);
  }
  const freq = parts.get("FREQ");
  if (!freq || !(FREQUENCIES as readonly string[]).includes(freq)) return refuse("FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY");
  for (const key of parts.keys())
    if (!["FREQ", "INTERVAL", "COUNT", "UNTIL", "BYDAY", "WKST"].includes(key)) return refuse(`${key} is not supported`);
  if (parts.has("WKST") && parts.get("WKST") !== "MO") return refuse("only WKST=MO is supported");

  const rule: Recurrence = { freq: freq as Recurrence["freq"], interval: 1 };
  const interval = parts.get("INTERVAL");
  if (interval !== undefined) {
    if (!/^[1-9]\d{0,2}$/.test(interval)) return refuse(`INTERVAL must be a whole number from 1 to ${MAX_INTERVAL}`);
    rule.interval = Number(interval);
  }
  const count = parts.get("COUNT");
  const until = parts.get("UNTIL");
  if (count !== undefined && until !== undefined) return refuse("COUNT and UNTIL cannot both be given");
  if (count !== undefined) {
    if (!/^[1-9]\d{0,3}$/.test(count) || Number(count) > MAX_COUNT) return refuse(`COUNT must be a whole number from 1 to ${MAX_COUNT}`);
    rule.count = Number(count);
  }
  if (until !== undefined) {
    const parsed = parseUntil(until);
    if (!parsed) return refuse("UNTIL must be a date (20261231) or a UTC time (20261231T235959Z)");
    rule.until = parsed;
  }
  const byDay = parts.get("BYDAY");
  if (byDay !== undefined) {
    if (rule.freq === "YEARLY") return refuse("BYDAY is not supported with FREQ=YEARLY");
    const days: NonNullable<Recurrence["byDay"]> = [];
    for (const item of byDay.split(",")) {
      const match = /^([+-]?[1-5])?(MO|TU|WE|TH|FR|SA|SU)$/.exec(item);
      if (!match) return refuse(`BYDAY "${item}" is not a weekday (MO..SU, with 1..5 or -1..-5 before it for MONTHLY)`);
      if (match[1] && rule.freq !== "MONTHLY") return refuse(`BYDAY "${item}": a numbered weekday needs FREQ=MONTHLY`);
      days.push({ day: match[2] as Weekday, ...(match[1] ? { ordinal: Number(match[1]) } : {}) });
    }
    rule.byDay = days;
  }
  return { ok: true, rule };
}

function parseUntil(value: string): Recurrence["until"] | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z)?$/.exec(value);
  if (!match) return undefined;
  const [, y, m, d, hh, mm, ss] = match;
  const date = `${y}-${m}-${d}`;
  const instant = new Date(hh ? `${date}T${hh}:${mm}:${ss}Z` : `${date}T00:00:00Z`);
  if (Number.isNaN(instant.getTime()) || instant.toISOString().slice(0, 10) !== date) return undefined;
  return hh ? { instant } : { date };
}

/** Days since 1970-01-01 of a calendar date (proleptic Gregorian, as Date does). */
const dayNumber = (y: number, m: number, d: number) => Math.floor(utcDate(y, m, d).getTime() / DAY_MS);
const fromDayNumber = (n: number) => {
  const date = new Date(n * DAY_MS);
  return { y: date.getUTCFullYear(), m: date.getUTCMonth() + 1, d: date.getUTCDate() };
};
/** 0 = Monday. */
const weekdayOf = (n: number) => (((n + 3) % 7) + 7) % 7;
const daysInMonth = (y: number, m: number) => fromDayNumber(dayNumber(y, m + 1, 1) - 1).d;

/** The dates (day numbers) of one period of the rule, in order; `k` counts periods from the series start. */
function datesOfPeriod(rule: Recurrence, first: { y: number; m: number; d: number; n: number }, k: number): number[] {
  const step = k * rule.interval;
  const wanted = (n: number) => !rule.byDay || rule.byDay.some((b) => WEEKDAYS.indexOf(b.day) === weekdayOf(n));
  switch (rule.freq) {
    case "DAILY": {
      const n = first.n + step;
      return wanted(n) ? [n] : [];
    }
    case "WEEKLY": {
      const monday = first.n - weekdayOf(first.n) + step * 7;
      const days = rule.byDay ? [...new Set(rule.byDay.map((b) => WEEKDAYS.indexOf(b.day)))].sort((a, b) => a - b) : [weekdayOf(first.n)];
      return days.map((day) => monday + day);
    }
    case "MONTHLY": {
      const monthIndex = first.y * 12 + (first.m - 1) + step;
      const y = Math.floor(monthIndex / 12);
      const m = (monthIndex % 12) + 1;
      const length = daysInMonth(y, m);
      if (!rule.byDay) return first.d <= length ? [dayNumber(y, m, first.d)] : []; // no 31st in a 30-day month: skipped
      const start = dayNumber(y, m, 1);
      const dates = new Set<number>();
      for (const { day, ordinal } of rule.byDay) {
        const matching: number[] = [];
        for (let n = start; n < start + length; n++) if (weekdayOf(n) === WEEKDAYS.indexOf(day)) matching.push(n);
        if (ordinal === undefined) for (const n of matching) dates.add(n);
        else {
          const n = ordinal > 0 ? matching[ordinal - 1] : matching[matching.length + ordinal];
          if (n !== undefined) dates.add(n);
        }
      }
      return [...dates].sort((a, b) => a - b);
    }
    case "YEARLY": {
      const y = first.y + step;
      return first.d <= daysInMonth(y, first.m) ? [dayNumber(y, first.m, first.d)] : []; // Feb 29 only in leap years
    }
  }
}

/** How many periods lie before the one holding day `n` (for skipping ahead when no COUNT needs them). */
function periodsBefore(rule: Recurrence, first: { y: number; m: number; n: number }, n: number): number {
  const { y, m } = fromDayNumber(n);
  const periods =
    rule.freq === "DAILY"
      ? n - first.n
      : rule.freq === "WEEKLY"
        ? Math.floor((n - (first.n - weekdayOf(first.n))) / 7)
        : rule.freq === "MONTHLY"
          ? (y - first.y) * 12 + (m - first.m)
          : y - first.y;
  return Math.max(0, Math.floor(periods / rule.interval) - 1);
}

export interface Occurrence {
  start: Date;
  end: Date | null;
}

/**
 * The occurrences of a series that overlap [from, to), in order, at most `limit`. The series
 * starts at `start` (its first occurrence) and lasts `durationMs` (null: no end). Bounded work
 * whatever the rule or the window: periods before the window are skipped unless COUNT needs
 * them (COUNT is at most 1000), and at most `limit` occurrences are produced.
 */
export function expand(
  rule: Recurrence,
  series: { start: Date; durationMs: number | null; timeZone: string; exceptions?: readonly number[] },
  window: { from: Date; to: Date; limit: number },
): Occurrence[] {
  const local = localDateTime(series.start, series.timeZone);
  const first = { y: local.y, m: local.m, d: local.d, n: dayNumber(local.y, local.m, local.d) };
  const until =
    rule.until === undefined
      ? undefined
      : "instant" in rule.until
        ? rule.until.instant.getTime()
        : zonedInstant(rule.until.date, { h: 23, mi: 59, s: 59 }, series.timeZone).getTime();
  const skipped = new Set(series.exceptions ?? []);
  // Occurrences follow each other in time, and the zone's offset rarely changes between them:
  // try the last one first (one offset lookup) and resolve from scratch only when it does not
  // hold (a DST change, or a time the clocks skip). Both give the same instant.
  const timeOfDayMs = ((local.h * 60 + local.mi) * 60 + local.s) * 1000;
  let lastOffset = offsetSeconds(series.start, series.timeZone);
  const startOf = (n: number): Date => {
    const guess = n * DAY_MS + timeOfDayMs - lastOffset * 1000;
    if (offsetSeconds(new Date(guess), series.timeZone) === lastOffset) return new Date(guess);
    const { y, m, d } = fromDayNumber(n);
    const date = `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
    const exact = zonedInstant(date, local, series.timeZone);
    lastOffset = offsetSeconds(exact, series.timeZone);
    return exact;
  };
  const reach = series.durationMs ?? 0;
  const found: Occurrence[] = [];
  let produced = 0;
  // Without COUNT, periods wholly before the window are skipped (a day of slack for zones and durations).
  const fromDay = Math.floor((window.from.getTime() - reach) / DAY_MS) - 1;
  let k = rule.count === undefined ? periodsBefore(rule, first, fromDay) : 0;
  // Every period but a rare few (a month without a fifth Monday) has a date, so the window's end
  // comes within a bounded number of periods; the guard only bounds a mistake.
  for (let guard = 0; guard < 50_000; guard++, k++) {
    const dates = datesOfPeriod(rule, first, k);
    for (const n of dates) {
      if (n < first.n) continue; // a period's days before the series began
      const start = startOf(n);
      if (start.getTime() < series.start.getTime()) continue;
      if (until !== undefined && start.getTime() > until) return found;
      produced++;
      if (rule.count !== undefined && produced > rule.count) return found;
      if (start.getTime() >= window.to.getTime()) return found;
      if (skipped.has(start.getTime())) continue;
      const end = series.durationMs === null ? null : new Date(start.getTime() + series.durationMs);
      const overlaps = end ? end.getTime() > window.from.getTime() : start.getTime() >= window.from.getTime();
      if (overlaps) {
        found.push({ start, end });
        if (found.length >= window.limit) return found;
      }
    }
  }
  return found;
}
