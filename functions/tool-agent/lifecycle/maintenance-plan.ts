// What one maintenance run (the Cron Trigger) does, decided from the tools' state alone: which
// running tools have been idle too long (cold_tool_idle_timeout_s), which are evicted because
// more are running than hot_tool_max_containers allows (least recently used first; the
// eviction_policy "lru"), and which are due a health check (health_check_interval_s). Pure, so
// every rule is unit-tested with a fixed clock.
import type { StoredTool } from "../tool-types.ts";

export interface MaintenanceRules {
  coldIdleTimeoutS: number;
  hotMaxContainers: number;
  healthCheckIntervalS: number;
}

export interface MaintenancePlan {
  idle: string[];
  evict: string[];
  check: string[];
}

const time = (iso: string | null | undefined) => (iso ? Date.parse(iso) : Number.NaN);

/** When the tool last did anything: its last call, else when it started. */
export function lastActivity(tool: StoredTool): number {
  const used = time(tool.route?.last_used_at);
  const started = time(tool.route?.started_at);
  const latest = Math.max(Number.isNaN(used) ? 0 : used, Number.isNaN(started) ? 0 : started);
  return latest;
}

export function planMaintenance(tools: readonly StoredTool[], rules: MaintenanceRules, now: number): MaintenancePlan {
  const running = tools.filter((tool) => tool.route?.state === "running");
  const idle = running.filter((tool) => now - lastActivity(tool) > rules.coldIdleTimeoutS * 1000);
  const stillRunning = running.filter((tool) => !idle.includes(tool)).sort((a, b) => lastActivity(b) - lastActivity(a));
  const evict = stillRunning.slice(rules.hotMaxContainers);
  const stopped = new Set([...idle, ...evict]);
  // Checked: what is still running, and what is in error (so a recovery is noticed).
  const check = tools.filter((tool) => {
    const state = tool.route?.state;
    if (!(state === "error" || (state === "running" && !stopped.has(tool)))) return false;
    const last = time(tool.route?.last_checked_at);
    return Number.isNaN(last) || now - last >= rules.healthCheckIntervalS * 1000;
  });
  const ids = (list: StoredTool[]) => list.map((tool) => tool.tool.tool_id);
  return { idle: ids(idle), evict: ids(evict), check: ids(check) };
}
