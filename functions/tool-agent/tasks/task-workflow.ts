// One task as a Cloudflare Workflow: each stage is a durable step, so a task survives a restart
// of the Worker (a finished step is not run again) and a step that fails for a passing reason is
// retried. A task that cannot succeed (TaskFailure) fails at once, with the reason recorded.
import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from "cloudflare:workers";
import { NonRetryableError } from "cloudflare:workflows";
import { describeProblems } from "../../lib/settings-parsing.ts";
import type { ToolAgentBindings } from "../app-env.ts";
import { toolDatabase } from "../database.ts";
import { loadToolAgentSettings } from "../settings.ts";
import { prepareWorkspace, TaskFailure } from "./prepare-workspace.ts";
import { claimTask, failTask, finishTask, loadTask, runCodingStep, SUPERSEDED, type TaskEnv, workspaceOf } from "./task-steps.ts";

export interface TaskParams {
  task_id: string;
  /** 0, then one more each time the watchdog starts the task again (task-watchdog.ts). */
  attempt: number;
}

const STORE_RETRIES = { retries: { limit: 4, delay: "2 seconds", backoff: "exponential" }, timeout: "1 minute" } as const;
/** The coding agent's run is long and costs money: one retry, for a restart or a passing fault. */
const CODING_RETRIES = { retries: { limit: 1, delay: "5 seconds" }, timeout: "30 minutes" } as const;

/** A TaskFailure becomes a NonRetryableError, so the Workflow does not try it again. */
async function finalOnFailure<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof TaskFailure) throw new NonRetryableError(error.message);
    throw error;
  }
}

export class ToolTaskWorkflow extends WorkflowEntrypoint<ToolAgentBindings, TaskParams> {
  private async taskEnv(): Promise<TaskEnv> {
    const loaded = loadToolAgentSettings(this.env);
    if (!loaded.ok) throw new NonRetryableError(`the Tool Agent's settings are invalid: ${describeProblems(loaded.problems)}`);
    return {
      settings: loaded.settings,
      db: await toolDatabase(loaded.settings),
      bindings: this.env,
      messages: this.env.TOOL_MESSAGES,
    };
  }

  override async run(event: Readonly<WorkflowEvent<TaskParams>>, step: WorkflowStep) {
    const { task_id: taskId, attempt = 0 } = event.payload;
    try {
      const claimed = await step.do("claim the task", STORE_RETRIES, async () => claimTask(await this.taskEnv(), taskId, attempt));
      if (!claimed) return { task_id: taskId, skipped: "the task has already ended" };
      const files = await step.do("prepare the workspace", STORE_RETRIES, () =>
        finalOnFailure(async () => {
          const env = await this.taskEnv();
          return prepareWorkspace(await loadTask(env, taskId, attempt), {
            ...env,
            workspace: workspaceOf(env, taskId),
            code: env.bindings.TOOL_CODE,
            timeoutMs: env.settings.dataPlane.timeoutMs,
            archiveMaxBytes: env.settings.coding.archiveMaxBytes,
          });
        }),
      );
      const outcome = await step.do("run the coding agent", CODING_RETRIES, () =>
        finalOnFailure(async () => {
          const env = await this.taskEnv();
          return runCodingStep(env, await loadTask(env, taskId, attempt));
        }),
      );
      await step.do("record the outcome", STORE_RETRIES, async () => {
        const env = await this.taskEnv();
        await finishTask(env, await loadTask(env, taskId, attempt), outcome);
      });
      return { task_id: taskId, files, outcome: outcome.outcome };
    } catch (error) {
      const message = (error as Error).message;
      if (message.includes(SUPERSEDED)) return { task_id: taskId, superseded: attempt };
      await step.do("record the failure", STORE_RETRIES, async () => failTask(await this.taskEnv(), taskId, message));
      return { task_id: taskId, failed: message };
    }
  }
}
