// Submitting a task (POST /create_tool, or /agent/chat when nothing matches and the caller asks
// for a tool): record it as pending, then request it on the message queue. A request that cannot
// be queued fails the task at once with the reason, so no task waits forever for a start.

import { type MessageQueue, sendMessage } from "../agent-messages.ts";
import type { Caller } from "../app-env.ts";
import { callerName } from "../app-env.ts";
import type { ToolDatabase } from "../database.ts";
import { StoreError } from "../registry/tool-store.ts";
import { type CreateToolRequest, newTaskId, taskBook } from "./task-request.ts";
import { insertTask, openTaskCount, type TaskRow, updateTask } from "./task-store.ts";

/** The caller already has as many tasks open as it may (each can spend model tokens). */
export class TaskLimitReached extends Error {
  override readonly name = "TaskLimitReached";
  readonly limit: number;
  constructor(limit: number) {
    super(`this key already has ${limit} tasks pending or running; wait for one to end (GET /tasks/{task_id})`);
    this.limit = limit;
  }
}

export async function submitTask(
  db: ToolDatabase,
  messages: MessageQueue,
  request: CreateToolRequest,
  caller: Caller,
  maxOpenTasks: number,
): Promise<TaskRow> {
  // Counted, then inserted: two requests at the same instant may both pass, so the limit can be
  // exceeded by the number of concurrent requests, never without bound.
  if ((await openTaskCount(db, callerName(caller))) >= maxOpenTasks) throw new TaskLimitReached(maxOpenTasks);
  const spec = taskBook(request);
  const task = await insertTask(db, {
    task_id: newTaskId(spec.type),
    kind: spec.type,
    description: request.description,
    task_spec: { ...spec, description: spec.description ?? request.description },
    tool_id: spec.tool_name ?? null,
    requested_by: callerName(caller),
  });
  try {
    await sendMessage(messages, {
      type: "tool_request",
      payload: { task_id: task.task_id, task_spec: spec, description: request.description, reference_files: [] },
    });
  } catch (error) {
    const reason = `the task could not be queued: ${(error as Error).message}`;
    await updateTask(db, task.task_id, { status: "failed", progress: "failed", error: reason, finished_at: new Date().toISOString() });
    throw new StoreError("UPSTREAM_UNAVAILABLE", reason);
  }
  return task;
}

/** What a caller sees of a task it submitted. */
export function taskAnswer(task: TaskRow) {
  return {
    task_id: task.task_id,
    kind: task.kind,
    status: task.status,
    progress: task.progress,
    description: task.description,
    task_spec: task.task_spec,
    tool_id: task.tool_id,
    model: task.model,
    steps: task.steps,
    cost_usd: Number(task.cost_usd),
    result: task.result,
    error: task.error,
    created_at: task.created_at,
    started_at: task.started_at,
    finished_at: task.finished_at,
  };
}
