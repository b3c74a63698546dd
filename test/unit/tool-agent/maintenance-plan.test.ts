import { expect, test } from "vitest";
import { planMaintenance } from "../../../functions/tool-agent/lifecycle/maintenance-plan.ts";
import type { StoredTool } from "../../../functions/tool-agent/tool-types.ts";

const NOW = Date.parse("2026-11-24T12:00:00Z");
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();
const rules = { coldIdleTimeoutS: 300, hotMaxContainers: 2, healthCheckIntervalS: 60 };

function tool(id: string, route: Partial<NonNullable<StoredTool["route"]>> | null): StoredTool {
  return {
    tool: { tool_id: id } as StoredTool["tool"],
    sources: [],
    route: route && ({ state: "stopped", started_at: null, last_used_at: null, last_checked_at: null, ...route } as StoredTool["route"]),
  };
}

test("idle past the timeout stops; the freshest within the hot limit stay; stopped tools are left alone", () => {
  const plan = planMaintenance(
    [
      tool("idle", { state: "running", started_at: ago(3600), last_used_at: ago(301) }),
      tool("started_long_ago_used_now", { state: "running", started_at: ago(3600), last_used_at: ago(5) }),
      tool("fresh", { state: "running", started_at: ago(10) }),
      tool("older", { state: "running", started_at: ago(100), last_used_at: ago(90) }),
      tool("stopped", { state: "stopped", last_used_at: ago(10_000) }),
      tool("no_route", null),
    ],
    rules,
    NOW,
  );
  expect(plan.idle).toEqual(["idle"]);
  expect(plan.evict).toEqual(["older"]);
  expect(plan.check.sort()).toEqual(["fresh", "started_long_ago_used_now"]);
});

test("health checks wait for their interval; tools in error are checked so a recovery is seen", () => {
  const plan = planMaintenance(
    [
      tool("checked_recently", { state: "running", started_at: ago(10), last_checked_at: ago(59) }),
      tool("due", { state: "running", started_at: ago(10), last_checked_at: ago(60) }),
      tool("broken", { state: "error", last_checked_at: ago(120) }),
    ],
    rules,
    NOW,
  );
  expect(plan.check.sort()).toEqual(["broken", "due"]);
  expect(plan.idle).toEqual([]);
  expect(plan.evict).toEqual([]);
});
