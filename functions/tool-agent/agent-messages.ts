// The Tool Agent's internal messages (the design's AgentMessage), carried on a Queue between the
// router side (HTTP, health checks) and the coding side (task workflows):
//   tool_request  router -> coding: start this task
//   tool_ready    coding -> router: the task registered an active tool
//   tool_error    coding -> router: the task failed
//   health_alert  health checks -> router: a tool keeps failing its checks (a repair may start)
// Parsed on receipt like any input: a queue is a boundary.
import { z } from "zod";
import { withinDeadline } from "./bounded.ts";

const taskId = z.string().regex(/^(create|deploy|repair)_[0-9a-f]{12}$/);
const toolId = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/);

export const AgentMessage = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("tool_request"),
    payload: z.object({
      task_id: taskId,
      task_spec: z.record(z.string(), z.unknown()),
      description: z.string().max(4_000),
      reference_files: z.array(z.string().max(300)).max(20).default([]),
    }),
  }),
  z.object({ type: z.literal("tool_ready"), payload: z.object({ task_id: taskId, tool_id: toolId, result: z.string().max(2_000) }) }),
  z.object({
    type: z.literal("tool_error"),
    payload: z.object({ task_id: taskId, tool_id: toolId.nullable(), error: z.string().max(4_000) }),
  }),
  z.object({
    type: z.literal("health_alert"),
    payload: z.object({ tool_id: toolId, error: z.string().max(2_000), last_healthy: z.string().nullable() }),
  }),
]);
export type AgentMessage = z.infer<typeof AgentMessage>;
export type MessageQueue = Queue<AgentMessage>;

/** How long sending one message may take. */
const SEND_MS = 5_000;

export const sendMessage = (queue: MessageQueue, message: AgentMessage) =>
  withinDeadline(queue.send(message), SEND_MS, "queueing a message");
