// The watchdog (run by the Cron Trigger): an open task that has not moved for
// TOOL_AGENT_TASK_STALE_S is started again as a new Workflow instance (the workspace keeps what
// it wrote), up to TOOL_AGENT_TASK_MAX_RESTARTS times, then failed with the reason. It covers a
// tool_request the Queue gave up on (a task pending for ever), and a Workflow that stopped
// mid-step without resuming (local `wrangler dev` does not resume one after a restart). The old
// instance is told to stop; if it runs on anyway, its steps see a newer attempt and stop.
import { log } from "../../lib/log.ts";
import { withinDeadline } from "../bounded.ts";
import type { ToolDatabase } from "../database.ts";
import { instanceId } from "./task-steps.ts";
import { appendLog, staleTasks, updateTask } from "./task-store.ts";
import type { TaskParams } from "./task-workflow.ts";

/** How many stale tasks one run looks at. */
const PER_RUN = 20;
/** How long one call to the Workflows binding may take. */
const WORKFLOW_CALL_MS = 5_000;

export interface WatchdogReport {
  restarted: string[];
  failed: string[];
}

export async function restartStaleTasks(
  db: ToolDatabase,
  tasks: Workflow<TaskParams>,
  limits: { staleTaskS: number; maxTaskRestarts: number },
  now = Date.now(),
): Promise<WatchdogReport> {
  const report: WatchdogReport = { restarted: [], failed: [] };
  for (const task of await staleTasks(db, new Date(now - limits.staleTaskS * 1000).toISOString(), PER_RUN)) {
    const reason = `no progress for ${limits.staleTaskS} s`;
    if (task.attempts >= limits.maxTaskRestarts) {
      const error = `the task stopped making progress (${reason}) after ${task.attempts} restarts`;
      await updateTask(db, task.task_id, { status: "failed", progress: "failed", error, finished_at: new Date(now).toISOString() });
      await appendLog(db, task.task_id, "ERROR", { message: error });
      report.failed.push(task.task_id);
      continue;
    }
    const attempt = task.attempts + 1;
    // The new attempt is recorded first, so the old instance's steps stop if it ever runs on.
    await updateTask(db, task.task_id, { attempts: attempt, progress: `started again after ${reason} (attempt ${attempt + 1})` });
    await appendLog(db, task.task_id, "MESSAGE", { type: "restart", attempt, reason });
    const stopOld = tasks.get(instanceId(task.task_id, task.attempts)).then((old) => old.terminate());
    // Gone, already ended, not there at all, or not answering: the new attempt stops it anyway.
    await withinDeadline(stopOld, WORKFLOW_CALL_MS, "stopping the stale workflow").catch(() => {});
    const start = tasks.create({ id: instanceId(task.task_id, attempt), params: { task_id: task.task_id, attempt } });
    await withinDeadline(start, WORKFLOW_CALL_MS, "starting the task again");
    report.restarted.push(task.task_id);
  }
  if (report.restarted.length || report.failed.length) log.warn("tool_agent.stale_tasks", { ...report });
  return report;
}
