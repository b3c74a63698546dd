// Turns zod's issues into the details a model can act on in one step: which fields are
// missing, which are invalid and why, which keys are unknown, and, for names people and
// models commonly guess, the canonical name to use instead.
import type { z } from "zod";
import { toStorableText } from "./fields.ts";
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

/**
 * Field paths echo the caller's keys. A key that Postgres could not store (NUL, an unpaired
 * surrogate) would make the error itself unrecordable, so those characters become U+FFFD.
 */
function pathOf(path: readonly PropertyKey[], prefix: string): string {
  return [prefix, ...path.map((part) => toStorableText(String(part)))].filter(Boolean).join(".");
}

/** The canonical name for a guessed key, from the table's own entries only ("constructor" is no alias). */
function aliasOf(aliases: Readonly<Record<string, string>>, key: string): string | undefined {
  return Object.hasOwn(aliases, key) ? aliases[key] : undefined;
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
        const canonical = aliasOf(aliases, key);
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
      if (input && typeof input === "object" && !(Object.hasOwn(input, issue.discriminator) && input[issue.discriminator] !== undefined)) {
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

/** The keys an object-like schema knows, through unions, pipes and wrappers (undefined: not an object). */
function knownKeys(schema: z.core.$ZodType): Set<string> | undefined {
  const def = schema._zod.def;
  switch (def.type) {
    case "object":
      return new Set(Object.keys((def as z.core.$ZodObjectDef).shape));
    case "union": {
      const keys = new Set<string>();
      for (const option of (def as z.core.$ZodUnionDef).options) for (const key of knownKeys(option) ?? []) keys.add(key);
      return keys;
    }
    case "pipe":
      return knownKeys((def as z.core.$ZodPipeDef).in);
    case "optional":
    case "nullable":
    case "default":
      return knownKeys((def as z.core.$ZodOptionalDef).innerType);
    default:
      return undefined;
  }
}

/**
 * When a discriminated union cannot pick its option (the discriminator is missing or wrong),
 * zod stops there and reports no unknown keys. So that one error names every problem, the
 * keys no option knows are added as the strict objects would have reported them.
 */
export function withUnionUnknownKeys(
  schema: z.core.$ZodType,
  input: Record<string, unknown>,
  issues: readonly z.core.$ZodIssue[],
): z.core.$ZodIssue[] {
  const undecided = issues.some((issue) => issue.code === "invalid_union" && "discriminator" in issue && issue.path.length <= 1);
  if (!undecided || issues.some((issue) => issue.code === "unrecognized_keys" && issue.path.length === 0)) return [...issues];
  const known = knownKeys(schema);
  const stray = known ? Object.keys(input).filter((key) => !known.has(key)) : [];
  if (stray.length === 0) return [...issues];
  return [...issues, { code: "unrecognized_keys", keys: stray, path: [], message: "Unrecognized keys", input }];
}
