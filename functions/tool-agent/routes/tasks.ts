// POST /create_tool (ask for a tool that does not exist yet) and GET /tasks/{id} (watch it).
// Needs the create scope; a key sees the tasks it submitted, an admin key sees every task
// (repairs included).
import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { z } from "zod";
import { withDeadline } from "../../lib/bounded-fetch.ts";
import { jsonContent, validated } from "../../lib/openapi.ts";
import { callerName, type ToolAgentEnv } from "../app-env.ts";
import { hasScope } from "../auth/api-keys.ts";
import { requireScope } from "../auth/caller.ts";
import { toolDatabase } from "../database.ts";
import { toolAgentError } from "../errors.ts";
import { API_KEY, AUTH_ERRORS, toolAgentErrors } from "../openapi.ts";
import { submitTask, taskAnswer } from "../tasks/submit-task.ts";
import { CreateToolRequest } from "../tasks/task-request.ts";
import { instanceId } from "../tasks/task-steps.ts";
import { getTask, taskLog } from "../tasks/task-store.ts";

/** The task's Workflow instance as the engine reports it, for a task still open; null when it cannot say in time. */
async function workflowStatus(tasks: ToolAgentEnv["Bindings"]["TOOL_TASKS"], taskId: string, attempt: number) {
  try {
    const instance = await withDeadline(tasks.get(instanceId(taskId, attempt)), 2_000, "the task's workflow");
    const { status, error } = await withDeadline(instance.status(), 2_000, "the task's workflow");
    return { status, ...(error ? { error: error.message } : {}) };
  } catch {
    return null;
  }
}

const TaskParam = z.object({ task_id: z.string().regex(/^(create|deploy|repair)_[0-9a-f]{12}$/, { error: "is not a task id" }) });
const TaskQuery = z.object({ log: z.enum(["0", "1"]).default("1").describe("1 (default) includes the coding agent's log") });
const Task = z.record(z.string(), z.unknown());

export const taskRoutes = new Hono<ToolAgentEnv>()
  .post(
    "/create_tool",
    describeRoute({
      summary: "Ask for a new tool",
      description:
        "Submits a task and answers at once with its id. The coding agent builds the tool (or deploys it from a repository archive), runs its tests in the sandbox and registers it; GET /tasks/{task_id} shows how far it got. Needs the create scope.",
      security: API_KEY,
      responses: {
        202: {
          description: "submitted",
          content: jsonContent(z.object({ task_id: z.string(), status: z.literal("pending"), message: z.string(), tracking: z.string() })),
        },
        ...AUTH_ERRORS,
      },
    }),
    requireScope("create"),
    validated("json", CreateToolRequest),
    async (c) => {
      const { settings, caller } = c.var;
      const task = await submitTask(
        await toolDatabase(settings),
        c.env.TOOL_MESSAGES,
        c.req.valid("json"),
        caller,
        settings.coding.maxOpenTasks,
      );
      return c.json(
        { task_id: task.task_id, status: "pending" as const, message: "Task submitted", tracking: `GET /tasks/${task.task_id}` },
        202,
      );
    },
  )
  .get(
    "/tasks/:task_id",
    describeRoute({
      summary: "A task's status, progress, result and log",
      description:
        "status is pending, running, completed or failed. Needs the create scope; only the key that submitted a task (or an admin key) sees it.",
      security: API_KEY,
      responses: {
        200: { description: "the task", content: jsonContent(Task) },
        ...toolAgentErrors({ 404: "NOT_FOUND: no such task (or not one this key submitted)" }),
        ...AUTH_ERRORS,
      },
    }),
    requireScope("create"),
    validated("param", TaskParam),
    validated("query", TaskQuery),
    async (c) => {
      const { task_id } = c.req.valid("param");
      const db = await toolDatabase(c.var.settings);
      const task = await getTask(db, task_id);
      // Someone else's task answers like a missing one: ids are not a way to learn what others asked for.
      if (!task || (!hasScope(c.var.caller.scopes, "admin") && task.requested_by !== callerName(c.var.caller))) {
        return c.json(toolAgentError("NOT_FOUND", `no task "${task_id}"`, { task_id }), 404);
      }
      const entries = c.req.valid("query").log === "1" ? await taskLog(db, task_id) : undefined;
      const workflow =
        task.status === "running" || task.status === "pending" ? await workflowStatus(c.env.TOOL_TASKS, task_id, task.attempts) : undefined;
      return c.json(
        {
          ...taskAnswer(task),
          ...(workflow ? { workflow } : {}),
          ...(entries ? { log: entries.map(({ kind, detail, at }) => ({ at, kind, ...(detail as object) })) } : {}),
        },
        200,
      );
    },
  );
