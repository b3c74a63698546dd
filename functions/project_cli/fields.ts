// Field types shared by method schemas: typed dates, offset-aware datetimes, UUIDs, IANA
// time zones and bounded text. Each carries a message that says what to send. Every string
// field is built on `storableString`, so nothing Postgres would refuse gets past validation.
import { z } from "zod";
import { isTimeZone } from "./time.ts";

/**
 * Text Postgres can store: `text` and `jsonb` refuse NUL (U+0000), and an unpaired UTF-16
 * surrogate cannot be encoded as UTF-8 at all. Both are refused here, with the field named,
 * instead of failing later as a database error.
 */
export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/** NUL, or a UTF-16 surrogate without its pair (String.prototype.isWellFormed is ES2024). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what Postgres cannot store
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** `value` with every character Postgres could not store replaced by U+FFFD, for echoing it. */
export function toStorableText(value: string): string {
  return value.replace(new RegExp(UNSTORABLE.source, "g"), "\uFFFD");
}

export const STORABLE_TEXT_PROBLEM = "must not contain NUL characters or unpaired UTF-16 surrogates";

/** At most `max` UTF-16 units of `value`, never cutting a surrogate pair in half (which Postgres could not store). */
export function truncateText(value: string, max: number): string {
  if (value.length <= max) return value;
  const cut = value.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** The base of every string field: a string Postgres can store. */
export const storableString = () => z.string().refine(isStorableText, { error: STORABLE_TEXT_PROBLEM, abort: true });

/** Where in a JSON value a key or string Postgres could not store sits, or undefined. */
function unstorableAt(value: unknown, path: (string | number)[] = []): (string | number)[] | undefined {
  if (typeof value === "string") return isStorableText(value) ? undefined : path;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = unstorableAt(item, [...path, i]);
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (!isStorableText(key)) return [...path, key];
      const found = unstorableAt(item, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * A free-form JSON object passed through to another service (a tool's params): any shape, but
 * every key and string storable (the call is recorded with the run) and at most `maxChars` as JSON.
 */
export const storableJsonObject = (maxChars: number) =>
  z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
    const at = unstorableAt(value);
    if (at) ctx.addIssue({ code: "custom", message: STORABLE_TEXT_PROBLEM, path: at });
    else if (JSON.stringify(value).length > maxChars) ctx.addIssue({ code: "custom", message: `at most ${maxChars} characters as JSON` });
  });

export const uuid = (what: string) => z.uuid({ error: `${what} must be a UUID` });

/**
 * The accepted range of instants: [1900-01-01T00:00:00Z, 9999-01-01T00:00:00Z). Within it,
 * any instant written in any time zone keeps a four-digit year, Postgres `timestamptz` and
 * JavaScript `Date` represent it exactly, and the day after the last accepted date exists.
 */
export const DATETIME_RANGE = { min: Date.UTC(1900, 0, 1), max: Date.UTC(9999, 0, 1) } as const;
export const DATE_RANGE = { min: "1900-01-01", max: "9998-12-31" } as const;
/** Offsets real zones use lie within ±14:00; larger ones are typos Postgres may refuse. */
export const MAX_OFFSET_MINUTES = 14 * 60;

const OFFSET_DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?(Z|([+-])(\d{2}):(\d{2}))$/;

/**
 * Why `value` is not an accepted datetime, or undefined when it is. Accepted: seconds given,
 * at most millisecond precision (the precision results are written in), an offset (Z or
 * ±HH:MM within ±14:00), a real calendar date and an instant within DATETIME_RANGE.
 */
export function datetimeProblem(value: string): string | undefined {
  const match = OFFSET_DATETIME.exec(value);
  if (!match)
    return "expected an ISO 8601 datetime with offset, e.g. 2026-04-23T16:00:00+08:00 (seconds required, at most 3 fraction digits)";
  const [, , month, day, hour, minute, second, , zone, , offsetHours, offsetMinutes] = match;
  if (Number(month) < 1 || Number(month) > 12 || Number(day) < 1 || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) {
    return "expected a real date and time (hours 00-23, minutes and seconds 00-59)";
  }
  if (zone !== "Z" && (Number(offsetMinutes) > 59 || Number(offsetHours) * 60 + Number(offsetMinutes) > MAX_OFFSET_MINUTES)) {
    return "the offset must be Z or between -14:00 and +14:00";
  }
  const instant = Date.parse(value);
  // Date.parse rolls 2026-02-30 over to March; a date that does not exist is refused.
  if (Number.isNaN(instant) || !isRealDate(value.slice(0, 10))) return "expected a real calendar date";
  if (instant < DATETIME_RANGE.min || instant >= DATETIME_RANGE.max)
    return "must lie between 1900-01-01T00:00:00Z and 9999-01-01T00:00:00Z";
  return undefined;
}

function isRealDate(date: string): boolean {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const probe = new Date(0);
  probe.setUTCFullYear(year, month - 1, day); // setUTCFullYear, unlike Date.UTC, keeps years < 100 as written
  return probe.getUTCFullYear() === year && probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day;
}

function refineWith(check: (value: string) => string | undefined) {
  return (value: string, ctx: z.core.$RefinementCtx<string>) => {
    const problem = check(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem, input: value });
  };
}

/** An instant with an explicit offset: 2026-04-23T16:00:00+08:00 or ...Z. Local times are refused. */
export const offsetDatetime = storableString().superRefine(refineWith(datetimeProblem));

/** Why `value` is not an accepted date (YYYY-MM-DD within DATE_RANGE), or undefined. */
export function dateProblem(value: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || !isRealDate(value)) return "expected a date YYYY-MM-DD";
  if (value < DATE_RANGE.min || value > DATE_RANGE.max) return `must lie between ${DATE_RANGE.min} and ${DATE_RANGE.max}`;
  return undefined;
}

export const isoDate = storableString().superRefine(refineWith(dateProblem));

export const ianaTimezone = storableString().max(64).refine(isTimeZone, { error: "expected an IANA time zone, e.g. Asia/Shanghai or UTC" });

export const text = (max: number) =>
  storableString()
    .trim()
    .min(1, { error: "must not be empty" })
    .max(max, { error: `at most ${max} characters` });

/** E.164: a plus sign, then 7 to 15 digits. */
export const phone = storableString().regex(/^\+[1-9][0-9]{6,14}$/, { error: "expected an E.164 phone number, e.g. +8613812345678" });

export const email = storableString()
  .max(320)
  .pipe(z.email({ error: "expected an e-mail address" }));

export const millis = (datetime: string) => Date.parse(datetime);
