// Field types shared by method schemas: typed dates, offset-aware datetimes, UUIDs, IANA
// time zones and bounded text. Each carries a message that says what to send.
import { z } from "zod";

export const uuid = (what: string) => z.uuid({ error: `${what} must be a UUID` });

/** An instant with an explicit offset: 2026-04-23T16:00:00+08:00 or ...Z. Local times are refused. */
export const offsetDatetime = z.iso.datetime({
  offset: true,
  error: "expected an ISO 8601 datetime with offset, e.g. 2026-04-23T16:00:00+08:00",
});

export const isoDate = z.iso.date({ error: "expected a date YYYY-MM-DD" });

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const ianaTimezone = z
  .string()
  .max(64)
  .refine(isTimeZone, { error: "expected an IANA time zone, e.g. Asia/Shanghai or UTC" });

export const text = (max: number) => z.string().trim().min(1, { error: "must not be empty" }).max(max, { error: `at most ${max} characters` });

/** E.164: a plus sign, then 7 to 15 digits. */
export const phone = z.string().regex(/^\+[1-9][0-9]{6,14}$/, { error: "expected an E.164 phone number, e.g. +8613812345678" });

export const email = z.email({ error: "expected an e-mail address" }).max(320);

export const millis = (datetime: string) => Date.parse(datetime);
