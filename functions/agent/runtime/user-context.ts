// USER_CONTEXT_JSON, the ENV section of the worker's prompt (decision D19): the one source of
// "now" and of the time zone that skills tell the model to resolve dates with.
import { isTimeZone, weekdayIn, zonedIso } from "../../project_cli/time.ts";

export interface UserContext {
  system_time_local: string;
  timezone_effective: string;
  weekday: string;
  locale: string;
}

interface ContextEntry {
  description: string;
  value: string;
}

function validZone(zone: unknown): zone is string {
  return typeof zone === "string" && zone.length <= 64 && isTimeZone(zone);
}

/**
 * The zone comes from the app: `forwardedProps.timezone`, or an AG-UI context entry described
 * as "timezone". Anything that is not a valid IANA zone falls back to UTC.
 */
export function resolveTimezone(forwardedProps: unknown, context: readonly ContextEntry[]): string {
  const forwarded = (forwardedProps as { timezone?: unknown } | null | undefined)?.timezone;
  if (validZone(forwarded)) return forwarded;
  const entry = context.find((item) => item.description.trim().toLowerCase() === "timezone");
  return validZone(entry?.value) ? entry.value : "UTC";
}

export function buildUserContext(now: Date, timezone: string, locale = "en"): UserContext {
  return {
    system_time_local: zonedIso(now, timezone),
    timezone_effective: timezone,
    weekday: weekdayIn(now, timezone),
    locale,
  };
}
