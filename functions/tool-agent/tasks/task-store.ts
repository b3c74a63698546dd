// Tasks and their log in the database (tool_agent.tasks, tool_agent.task_log), as the Tool
// Agent's role. Reads and writes fail as StoreError like the registry's.
import type { Database, Json } from "../../lib/database.types.ts";
import { log } from "../../lib/log.ts";
import type { LogKind } from "../coding/coding-agent.ts";
import type { ToolDatabase } from "../database.ts";
import { attempt, StoreError } from "../registry/tool-store.ts";

export type TaskRow = Database["tool_agent"]["Tables"]["tasks"]["Row"];
export type TaskInsert = Database["tool_agent"]["Tables"]["tasks"]["Insert"];
export type TaskPatch = Database["tool_agent"]["Tables"]["tasks"]["Update"];
export type TaskLogRow = Database["tool_agent"]["Tables"]["task_log"]["Row"];

export async function insertTask(db: ToolDatabase, task: TaskInsert): Promise<TaskRow> {
  const { data } = await attempt("recording the task", db.from("tasks").insert(task).select().single());
  if (!data) throw new StoreError("UPSTREAM_UNAVAILABLE", "recording the task failed: the data plane answered no row");
  return data;
}

export async function getTask(db: ToolDatabase, taskId: string): Promise<TaskRow | null> {
  const { data } = await attempt("reading the task", db.from("tasks").select().eq("task_id", taskId).maybeSingle());
  return data;
}

export async function updateTask(db: ToolDatabase, taskId: string, patch: TaskPatch): Promise<void> {
  await attempt("recording the task's progress", db.from("tasks").update(patch).eq("task_id", taskId));
}

/** How many of this caller's tasks are pending or running. */
export async function openTaskCount(db: ToolDatabase, requestedBy: string): Promise<number> {
  const { count } = await attempt(
    "counting the caller's tasks",
    db.from("tasks").select("task_id", { count: "exact", head: true }).eq("requested_by", requestedBy).in("status", ["pending", "running"]),
  );
  return count ?? 0;
}

/** The newest `limit` entries, oldest first. */
/** Open tasks that have not moved since `before`, least recently moved first (the watchdog's). */
export async function staleTasks(db: ToolDatabase, before: string, limit: number): Promise<TaskRow[]> {
  const { data } = await attempt(
    "finding stale tasks",
    db.from("tasks").select().in("status", ["pending", "running"]).lt("updated_at", before).order("updated_at").limit(limit),
  );
  return data ?? [];
}

export async function taskLog(db: ToolDatabase, taskId: string, limit = 100): Promise<TaskLogRow[]> {
  const { data } = await attempt(
    "reading the task's log",
    db.from("task_log").select().eq("task_id", taskId).order("entry_id", { ascending: false }).limit(limit),
  );
  return (data ?? []).reverse();
}

/** Appends one log entry; a failure is logged and swallowed: the task goes on without that line. */
export async function appendLog(
  db: ToolDatabase,
  taskId: string,
  kind: LogKind | "MESSAGE",
  detail: Record<string, unknown>,
): Promise<void> {
  try {
    await attempt("appending to the task's log", db.from("task_log").insert({ task_id: taskId, kind, detail: detail as Json }));
  } catch (error) {
    log.warn("tool_agent.task_log_lost", { task_id: taskId, kind, message: (error as Error).message });
  }
}
