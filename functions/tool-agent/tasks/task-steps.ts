// The steps of one task, each a plain function the task's Workflow runs as a durable step:
// claim it, prepare its workspace, run the coding agent, record how it ended (and tell the
// router side with tool_ready or tool_error). A step may run again after a restart or a retry,
// so each is safe to repeat.
import type { LanguageModel } from "ai";
import { log } from "../../lib/log.ts";
import { openAiModels } from "../../lib/openai-models.ts";
import type { RegistryStorage } from "../admin/register-tool.ts";
import { type AgentMessage, type MessageQueue, sendMessage } from "../agent-messages.ts";
import type { ToolAgentBindings } from "../app-env.ts";
import { registerCandidate } from "../coding/candidate-registration.ts";
import { type CodingOutcome, type CodingTask, runCodingAgent } from "../coding/coding-agent.ts";
import { DEMO_CODING_MODEL_ID, demoCodingModel } from "../coding/demo-coding-model.ts";
import { objectWorkspace, type Workspace } from "../coding/workspace.ts";
import type { ToolDatabase } from "../database.ts";
import { importSecretKey } from "../secrets/secret-box.ts";
import type { ToolAgentSettings } from "../settings.ts";
import { TaskFailure } from "./prepare-workspace.ts";
import { appendLog, getTask, type TaskRow, updateTask } from "./task-store.ts";

export interface TaskEnv {
  db: ToolDatabase;
  settings: ToolAgentSettings;
  bindings: Pick<ToolAgentBindings, "TOOL_CODE" | "LOADER" | "TOOL_CONTAINERS">;
  messages: MessageQueue;
}

/** The model the coding agent uses: the configured endpoint's, or the offline demo. */
export function codingModel(settings: ToolAgentSettings): { model: LanguageModel; label: string } {
  if (!settings.model) return { model: demoCodingModel(), label: DEMO_CODING_MODEL_ID };
  const { api, baseUrl, apiKey } = settings.model;
  return { model: openAiModels({ api, baseUrl, apiKey })(settings.coding.model), label: settings.coding.model };
}

export const workspaceOf = (env: TaskEnv, taskId: string): Workspace =>
  objectWorkspace(env.bindings.TOOL_CODE, taskId, env.settings.dataPlane.timeoutMs);

/** The Workflow instance of a task's attempt: the task's id, then `<id>-r1`, `<id>-r2`... */
export const instanceId = (taskId: string, attempt: number) => (attempt === 0 ? taskId : `${taskId}-r${attempt}`);

/** An attempt the watchdog has replaced with a newer one: it stops without touching the task. */
export const SUPERSEDED = "superseded by a newer attempt";

/** Marks the task running; false when it has ended or a newer attempt owns it (nothing to do). */
export async function claimTask(env: TaskEnv, taskId: string, attempt: number): Promise<boolean> {
  const task = await getTask(env.db, taskId);
  if (!task || task.status === "completed" || task.status === "failed" || task.attempts !== attempt) return false;
  const { label } = codingModel(env.settings);
  await updateTask(env.db, taskId, {
    status: "running",
    progress: "preparing the workspace",
    model: label,
    started_at: task.started_at ?? new Date().toISOString(),
  });
  return true;
}

/** The task as stored; each step reads it afresh rather than carrying it between steps. */
export async function loadTask(env: TaskEnv, taskId: string, attempt: number): Promise<TaskRow> {
  const task = await getTask(env.db, taskId);
  if (!task) throw new TaskFailure(`the task ${taskId} is no longer recorded`);
  if (task.attempts !== attempt) throw new TaskFailure(SUPERSEDED);
  return task;
}

function codingTask(task: TaskRow): CodingTask {
  const spec = task.task_spec as Record<string, unknown>;
  const toolName = typeof spec.tool_name === "string" ? spec.tool_name : undefined;
  switch (task.kind) {
    case "build_tool":
      return {
        taskId: task.task_id,
        kind: "build_tool",
        description: task.description,
        ...(toolName ? { toolName } : {}),
        ...(typeof spec.details === "string" ? { details: spec.details } : {}),
      };
    case "github_deploy":
      return { taskId: task.task_id, kind: "github_deploy", description: task.description, ...(toolName ? { toolName } : {}) };
    case "repair_tool":
      return {
        taskId: task.task_id,
        kind: "repair_tool",
        description: task.description,
        toolId: task.tool_id ?? "",
        error: String(spec.error ?? ""),
      };
  }
}

export async function runCodingStep(env: TaskEnv, task: TaskRow): Promise<CodingOutcome> {
  const { settings, bindings, db } = env;
  const { model, label } = codingModel(settings);
  await updateTask(db, task.task_id, { progress: `the coding agent is working (${label})` });
  const storage: RegistryStorage = {
    db,
    code: bindings.TOOL_CODE,
    timeoutMs: settings.dataPlane.timeoutMs,
    secretKey: await importSecretKey(settings.secretKey),
    containers: bindings.TOOL_CONTAINERS,
  };
  const sandbox = {
    loader: bindings.LOADER,
    limits: settings.sandbox,
    timeoutMs: settings.calls.timeoutMs,
    maxBodyBytes: settings.calls.maxBodyBytes,
  };
  const workspace = workspaceOf(env, task.task_id);
  const coding = codingTask(task);
  let steps = 0;
  return runCodingAgent(coding, {
    model,
    limits: settings.coding,
    tools: {
      workspace,
      sandbox,
      register: (input) =>
        registerCandidate(input, { task: { kind: coding.kind, toolId: task.tool_id ?? undefined }, workspace, storage, sandbox }),
    },
    log: async (kind, detail) => {
      await appendLog(db, task.task_id, kind, detail);
      if (kind === "TOOL_USE" && typeof detail.step === "number" && detail.step > steps) {
        steps = detail.step;
        // Progress is a courtesy to whoever watches: a write that fails must not stop the task.
        await updateTask(db, task.task_id, { steps, progress: `step ${steps}: ${String(detail.tool)}` }).catch(() => {});
      }
    },
  });
}

/** Records the end and tells the router side. A message that cannot be sent loses the notice, not the result. */
export async function finishTask(env: TaskEnv, task: TaskRow, outcome: CodingOutcome): Promise<void> {
  const completed = outcome.outcome === "completed";
  await updateTask(env.db, task.task_id, {
    status: completed ? "completed" : "failed",
    progress: completed ? `done: ${outcome.tool_id} is active` : "failed",
    steps: outcome.steps,
    cost_usd: outcome.cost_usd,
    tool_id: outcome.tool_id ?? task.tool_id,
    result: { ...outcome },
    error: completed ? null : outcome.message.slice(0, 4_000),
    finished_at: new Date().toISOString(),
  });
  await notify(
    env,
    completed
      ? { type: "tool_ready", payload: { task_id: task.task_id, tool_id: outcome.tool_id ?? "", result: outcome.message.slice(0, 2_000) } }
      : {
          type: "tool_error",
          payload: { task_id: task.task_id, tool_id: outcome.tool_id ?? task.tool_id, error: outcome.message.slice(0, 4_000) },
        },
  );
}

/** Sends a notice to the router side; one that cannot be sent is logged, and the task's record stands. */
async function notify(env: TaskEnv, message: AgentMessage): Promise<void> {
  await sendMessage(env.messages, message).catch((error: Error) =>
    log.warn("tool_agent.message_not_sent", { type: message.type, message: error.message }),
  );
}

/** A task that could not run to the end: failed, with the reason. */
export async function failTask(env: TaskEnv, taskId: string, message: string): Promise<void> {
  const task = await getTask(env.db, taskId);
  if (!task || task.status === "completed" || task.status === "failed") return;
  await updateTask(env.db, taskId, {
    status: "failed",
    progress: "failed",
    error: message.slice(0, 4_000),
    finished_at: new Date().toISOString(),
  });
  await appendLog(env.db, taskId, "ERROR", { message: message.slice(0, 2_000) });
  await notify(env, { type: "tool_error", payload: { task_id: taskId, tool_id: task.tool_id, error: message.slice(0, 4_000) } });
}
