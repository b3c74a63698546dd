// The scheduled maintenance (a Cron Trigger every minute; index.ts): stop idle tools, evict the
// least recently used beyond the hot limit, and health-check the rest when their interval has
// passed, recording each result in the tool's state. A failed check sets the tool to `error`
// with the reason; every TOOL_AGENT_REPAIR_AFTER_FAILURES failures in a row also send a
// health_alert, which opens a repair task (tasks/message-consumer.ts).
import { log } from "../../lib/log.ts";
import { type MessageQueue, sendMessage } from "../agent-messages.ts";
import type { ToolDatabase } from "../database.ts";
import { toolsInState, updateRoute } from "../registry/tool-store.ts";
import type { ToolAgentSettings } from "../settings.ts";
import type { StoredTool } from "../tool-types.ts";
import { checkHealth, type HealthCheckOptions } from "./health-check.ts";
import { planMaintenance } from "./maintenance-plan.ts";
import { stopRuntime } from "./start-stop.ts";

export interface MaintenanceOptions extends HealthCheckOptions {
  /** Where health alerts go; without it failures are only recorded. */
  messages?: MessageQueue;
}

export interface MaintenanceReport {
  idle_stopped: string[];
  evicted: string[];
  checked: { tool_id: string; healthy: boolean; error?: string }[];
}

/** Workers allow six open connections per invocation; checks go in batches of that many. */
const CHECKS_AT_ONCE = 6;

async function recordHealth(db: ToolDatabase, tool: StoredTool, healthy: boolean, error: string | undefined, now: string): Promise<void> {
  const failures = tool.route?.consecutive_failures ?? 0;
  await updateRoute(
    db,
    tool.tool.tool_id,
    healthy
      ? {
          last_checked_at: now,
          last_healthy_at: now,
          consecutive_failures: 0,
          ...(tool.route?.state === "error" ? { state: "running", last_error: null } : {}),
        }
      : {
          last_checked_at: now,
          consecutive_failures: failures + 1,
          state: "error",
          last_error: `health check failed: ${error}`.slice(0, 2000),
        },
  );
}

export async function runMaintenance(
  db: ToolDatabase,
  settings: ToolAgentSettings,
  options: MaintenanceOptions,
  now = Date.now(),
): Promise<MaintenanceReport> {
  const tools = await toolsInState(db, ["running", "error"]);
  const plan = planMaintenance(tools, settings.lifecycle, now);
  const stopping = new Set([...plan.idle, ...plan.evict]);
  for (const tool of tools) if (stopping.has(tool.tool.tool_id)) await stopRuntime(tool, db, options.containers);

  const checked: MaintenanceReport["checked"] = [];
  const due = tools.filter((tool) => plan.check.includes(tool.tool.tool_id));
  const at = new Date(now).toISOString();
  for (let i = 0; i < due.length; i += CHECKS_AT_ONCE) {
    await Promise.all(
      due.slice(i, i + CHECKS_AT_ONCE).map(async (tool) => {
        // A check that could not be made (storage or the container's object not answering) says
        // nothing about the tool: it is skipped, and tried again next run.
        const health = await checkHealth(tool, options).catch((failure: Error) => {
          log.warn("tool_agent.health_unchecked", { tool_id: tool.tool.tool_id, message: failure.message });
          return undefined;
        });
        if (!health) return;
        const error = health.healthy ? undefined : health.error;
        await recordHealth(db, tool, health.healthy, error, at);
        const failures = (tool.route?.consecutive_failures ?? 0) + 1;
        if (error && options.messages && failures % settings.coding.repairAfterFailures === 0) {
          const alert = { tool_id: tool.tool.tool_id, error: error.slice(0, 2_000), last_healthy: tool.route?.last_healthy_at ?? null };
          await sendMessage(options.messages, { type: "health_alert", payload: alert }).catch((failure: Error) =>
            log.warn("tool_agent.health_alert_not_sent", { tool_id: alert.tool_id, message: failure.message }),
          );
        }
        checked.push({ tool_id: tool.tool.tool_id, healthy: health.healthy, ...(error ? { error } : {}) });
      }),
    );
  }
  const report = { idle_stopped: plan.idle, evicted: plan.evict, checked };
  log.info("tool_agent.maintenance", {
    idle_stopped: report.idle_stopped.length,
    evicted: report.evicted.length,
    checked: checked.length,
    unhealthy: checked.filter((c) => !c.healthy).map((c) => c.tool_id),
  });
  return report;
}
