// What a call changes in its tool's state, and whether that is worth a database write. A busy
// tool's calls would otherwise each pay a write only to move last_used_at a few milliseconds:
// when nothing but that changed, last_used_at is refreshed at most every USE_REFRESH_MS. Idle
// stops and LRU eviction (lifecycle/) read it, so they are exact to within that much.
import type { RouteRow } from "../tool-types.ts";

export const USE_REFRESH_MS = 10_000;

export type RouteChange = Partial<Pick<RouteRow, "state" | "active_source" | "last_used_at" | "last_error" | "started_at">>;

/** The route update a call's outcome needs, or undefined when none is due. */
export function routeChange(
  route: RouteRow | null,
  outcome: { ok: boolean; position: number; error?: string },
  now: number,
): RouteChange | undefined {
  const at = new Date(now).toISOString();
  const state = outcome.ok ? "running" : "error";
  const lastError = outcome.ok ? null : (outcome.error ?? "failed").slice(0, 2000);
  const lastUsed = route?.last_used_at ? Date.parse(route.last_used_at) : Number.NaN;
  const unchanged =
    route !== null &&
    route.state === state &&
    route.active_source === outcome.position &&
    route.last_error === lastError &&
    now - lastUsed < USE_REFRESH_MS;
  if (unchanged) return undefined;
  return {
    state,
    active_source: outcome.position,
    last_used_at: at,
    last_error: lastError,
    ...(outcome.ok && route?.state !== "running" ? { started_at: at } : {}),
  };
}
