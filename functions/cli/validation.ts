// Turns zod's issues into the details a model can act on in one step: which fields are
// missing, which are invalid and why, which keys are unknown, and, for names people and
// models commonly guess, the canonical name to use instead.
import type { z } from "zod";
import type { CliErrorDetails, InvalidField } from "./result.ts";

/** Guessed or legacy field names, and what they are called here. Never accepted. */
export const FIELD_ALIASES: Readonly<Record<string, string>> = {
  start_time: "start_at",
  end_time: "end_at",
  startAt: "start_at",
  endAt: "end_at",
  start: "start_at",
  end: "end_at",
  event_timezone: "timezone",
  tz: "timezone",
  time_zone: "timezone",
  eventId: "event_id",
  id: "event_id",
  item_id: "event_id",
  day: "date",
  name: "title",
  summary: "title",
  changes: "patch",
  updates: "patch",
  permission: "permissions",
};

function pathOf(path: readonly PropertyKey[], prefix: string): string {
  return [prefix, ...path.map(String)].filter(Boolean).join(".");
}

function describe(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return `expected ${issue.expected}`;
    case "invalid_format":
      if (issue.format === "datetime") return "expected an ISO 8601 datetime with offset, e.g. 2026-04-23T16:00:00+08:00";
      if (issue.format === "date") return "expected a date YYYY-MM-DD";
      if (issue.format === "uuid") return "expected a UUID";
      return issue.message;
    case "invalid_value":
      return `expected one of ${issue.values.map((value) => JSON.stringify(value)).join(", ")}`;
    default:
      return issue.message;
  }
}

/**
 * `prefix` is where the validated value sits in the envelope ("input" for method input), so
 * field paths read the way the caller wrote them.
 */
export function detailsFromIssues(
  issues: readonly z.core.$ZodIssue[],
  prefix = "",
  aliases: Readonly<Record<string, string>> = FIELD_ALIASES,
): Required<Pick<CliErrorDetails, "missing_fields" | "invalid_fields" | "alias_corrections">> & CliErrorDetails {
  const missing = new Set<string>();
  const invalid: InvalidField[] = [];
  const unknown = new Set<string>();
  const corrections: Record<string, string> = {};

  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        const field = pathOf([...issue.path, key], prefix);
        unknown.add(field);
        const canonical = aliases[key];
        if (canonical) corrections[field] = pathOf([...issue.path, canonical], prefix);
      }
      continue;
    }
    if (issue.code === "invalid_type" && issue.input === undefined) {
      missing.add(pathOf(issue.path, prefix));
      continue;
    }
    // A discriminated union reports the whole object as input; the key itself may be absent.
    if (issue.code === "invalid_union" && "discriminator" in issue && typeof issue.discriminator === "string") {
      const input = issue.input as Record<string, unknown> | undefined;
      if (input && typeof input === "object" && input[issue.discriminator] === undefined) {
        missing.add(pathOf(issue.path, prefix));
        continue;
      }
    }
    invalid.push({ field: pathOf(issue.path, prefix) || "(input)", problem: describe(issue) });
  }

  return {
    missing_fields: [...missing],
    invalid_fields: invalid,
    ...(unknown.size > 0 ? { unknown_fields: [...unknown] } : {}),
    alias_corrections: corrections,
  };
}
