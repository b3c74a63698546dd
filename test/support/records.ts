// Recording a run as a user would, through the recording functions with the user's own
// credential (the only way records are written): for tests of what the records allow and show.
import { clientAs } from "./users.ts";

export async function startRun(userId: string, threadId: string, runId: string, text = "hello", overrides: Record<string, unknown> = {}) {
  return (await clientAs(userId)).rpc("record_run_start", {
    p_thread_id: threadId,
    p_run_id: runId,
    p_title: text,
    p_models: {},
    p_user_content: text,
    p_user_metadata: { message_id: crypto.randomUUID(), attachments: [] },
    ...overrides,
  });
}

export async function finishRun(userId: string, runId: string, overrides: Record<string, unknown> = {}) {
  return (await clientAs(userId)).rpc("record_run_finish", {
    p_run_id: runId,
    p_status: "succeeded",
    p_error_code: null,
    p_step_count: 1,
    p_usage: {},
    p_stage_timings: {},
    p_messages: [{ role: "assistant", content: "done", metadata: { message_id: crypto.randomUUID() } }],
    ...overrides,
  });
}
