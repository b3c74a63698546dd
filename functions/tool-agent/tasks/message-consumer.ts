// The router side of the message queue (the Worker's queue handler): a tool_request starts its
// task's Workflow; a health_alert about a local tool opens a repair task (one at a time per
// tool) and requests it; tool_ready and tool_error are recorded in the task's log. A message
// that does not parse is dropped with a log line (retrying cannot fix it); a store that does not
// answer retries the message.
import { log } from "../../lib/log.ts";
import { AgentMessage, type MessageQueue, sendMessage } from "../agent-messages.ts";
import { withinDeadline } from "../bounded.ts";
import type { ToolDatabase } from "../database.ts";
import { getTool, StoreError } from "../registry/tool-store.ts";
import { activeSource } from "../registry/tool-view.ts";
import { newTaskId } from "./task-request.ts";
import { instanceId } from "./task-steps.ts";
import { appendLog, insertTask } from "./task-store.ts";
import type { TaskParams } from "./task-workflow.ts";

export interface ConsumerEnv {
  db: ToolDatabase;
  tasks: Workflow<TaskParams>;
  messages: MessageQueue;
}

/** How long one call to the Workflows binding may take; past it the message is retried. */
const WORKFLOW_CALL_MS = 5_000;

/** Starts the task's Workflow; a second request for the same task (a redelivery) finds it running. */
async function startWorkflow(env: ConsumerEnv, taskId: string): Promise<void> {
  const id = instanceId(taskId, 0);
  try {
    await withinDeadline(env.tasks.create({ id, params: { task_id: taskId, attempt: 0 } }), WORKFLOW_CALL_MS, "starting the task");
  } catch (error) {
    const existing = await withinDeadline(env.tasks.get(id), WORKFLOW_CALL_MS, "finding the task's workflow").catch(() => undefined);
    if (!existing) throw error;
  }
}

async function openRepair(env: ConsumerEnv, toolId: string, error: string, lastHealthy: string | null): Promise<string | undefined> {
  const stored = await getTool(env.db, toolId);
  if (stored?.tool.status !== "active" || activeSource(stored)?.type !== "local") {
    log.info("tool_agent.repair_skipped", { tool_id: toolId, reason: "only active local tools are repaired by the coding agent" });
    return undefined;
  }
  const description = `The tool ${toolId} fails its health checks (${error}); diagnose and repair it.`;
  const taskSpec = { type: "repair_tool", tool_id: toolId, error, last_healthy: lastHealthy, description };
  try {
    const task = await insertTask(env.db, {
      task_id: newTaskId("repair_tool"),
      kind: "repair_tool",
      description,
      task_spec: taskSpec,
      tool_id: toolId,
      requested_by: "health-check",
    });
    return task.task_id;
  } catch (failure) {
    // A repair of this tool is already open: the unique index said so.
    if (failure instanceof StoreError && failure.code === "CONFLICT") return undefined;
    throw failure;
  }
}

export async function handleMessage(env: ConsumerEnv, message: AgentMessage): Promise<void> {
  switch (message.type) {
    case "tool_request":
      await appendLog(env.db, message.payload.task_id, "MESSAGE", { type: message.type });
      await startWorkflow(env, message.payload.task_id);
      return;
    case "health_alert": {
      const taskId = await openRepair(env, message.payload.tool_id, message.payload.error, message.payload.last_healthy);
      if (!taskId) return;
      await appendLog(env.db, taskId, "MESSAGE", { type: message.type, ...message.payload });
      await sendMessage(env.messages, {
        type: "tool_request",
        payload: {
          task_id: taskId,
          task_spec: { type: "repair_tool", tool_id: message.payload.tool_id },
          description: message.payload.error,
          reference_files: [],
        },
      });
      return;
    }
    case "tool_ready":
    case "tool_error":
      await appendLog(env.db, message.payload.task_id, "MESSAGE", { ...message.payload, type: message.type });
      log.info("tool_agent.task_message", { type: message.type, task_id: message.payload.task_id, tool_id: message.payload.tool_id });
      return;
  }
}

export async function consumeMessages(batch: MessageBatch<unknown>, env: ConsumerEnv): Promise<void> {
  for (const received of batch.messages) {
    const parsed = AgentMessage.safeParse(received.body);
    if (!parsed.success) {
      log.error("tool_agent.message_dropped", { id: received.id, problem: parsed.error.issues[0]?.message ?? "does not parse" });
      received.ack();
      continue;
    }
    try {
      await handleMessage(env, parsed.data);
      received.ack();
    } catch (error) {
      log.warn("tool_agent.message_retried", { id: received.id, type: parsed.data.type, message: (error as Error).message });
      received.retry({ delaySeconds: 2 });
    }
  }
}
