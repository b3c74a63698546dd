import { expect, test } from "vitest";
import { routeChange, USE_REFRESH_MS } from "../../../functions/tool-agent/calls/state-change.ts";
import type { RouteRow } from "../../../functions/tool-agent/tool-types.ts";

const NOW = Date.parse("2026-11-24T12:00:00Z");
const route = (fields: Partial<RouteRow>): RouteRow =>
  ({
    tool_id: "t",
    state: "running",
    active_source: 0,
    last_error: null,
    started_at: "2026-11-24T11:00:00Z",
    last_used_at: new Date(NOW - 1000).toISOString(),
    ...fields,
  }) as RouteRow;

test("a repeat success within the refresh window writes nothing", () => {
  expect(routeChange(route({}), { ok: true, position: 0 }, NOW)).toBeUndefined();
});

test("a success after the window refreshes last_used_at only as it must", () => {
  const change = routeChange(route({ last_used_at: new Date(NOW - USE_REFRESH_MS).toISOString() }), { ok: true, position: 0 }, NOW);
  expect(change).toEqual({ state: "running", active_source: 0, last_used_at: new Date(NOW).toISOString(), last_error: null });
});

test("a first success starts the tool; a fallback, a failure and a recovery are always written", () => {
  expect(routeChange(route({ state: "stopped" }), { ok: true, position: 0 }, NOW)).toMatchObject({
    state: "running",
    started_at: new Date(NOW).toISOString(),
  });
  expect(routeChange(null, { ok: true, position: 0 }, NOW)).toMatchObject({ state: "running", started_at: new Date(NOW).toISOString() });
  expect(routeChange(route({}), { ok: true, position: 1 }, NOW)).toMatchObject({ active_source: 1 });
  expect(routeChange(route({}), { ok: false, position: 0, error: "down" }, NOW)).toMatchObject({ state: "error", last_error: "down" });
  expect(routeChange(route({ state: "error", last_error: "down" }), { ok: true, position: 0 }, NOW)).toMatchObject({
    state: "running",
    last_error: null,
  });
});
