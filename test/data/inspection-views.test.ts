// The dashboard views (agent_run_overview, agent_thread_messages) on the real data plane: what
// they show of a recorded run, that they are security invoker (each user sees only its own
// rows through PostgREST; anon sees nothing), and that values a user planted in its own
// records' jsonb read as null instead of breaking the view.
import { beforeAll, describe, expect, test } from "vitest";
import { finishRun, startRun } from "../support/records.ts";
import { anonClient, clientAs, createUser } from "../support/users.ts";

let owner: string;
let other: string;
const thread = `views-${crypto.randomUUID()}`;
const run = `run-${crypto.randomUUID()}`;

const toolMessage = (summary: string, metadata: Record<string, unknown>) => ({
  role: "tool",
  content: summary,
  metadata: { message_id: crypto.randomUUID(), tool_name: "project_cli", summary_version: 1, ...metadata },
});

beforeAll(async () => {
  [owner, other] = await Promise.all([createUser("views-owner"), createUser("views-other")]);
  expect(
    (await startRun(owner, thread, run, "What's on today?", { p_models: { intent: "gpt-x-mini", execution: "gpt-x" } })).error,
  ).toBeNull();
  const finished = await finishRun(owner, run, {
    p_step_count: 3,
    p_usage: { input_tokens: 1200, output_tokens: 80, total_tokens: 1280, by_stage: {} },
    p_stage_timings: { intent_ms: 310, execution_ms: 1450, total_ms: 1800 },
    p_messages: [
      toolMessage("calendar.read failed: invalid input", {
        module: "calendar",
        method: "read",
        status: "failure",
        error_code: "INVALID_ACTION_INPUT",
      }),
      toolMessage("2 events on 2026-04-23", { module: "calendar", method: "read", status: "success", error_code: null }),
      { role: "assistant", content: "You have two meetings.", metadata: { message_id: crypto.randomUUID() } },
    ],
  });
  expect(finished.error).toBeNull();
});

describe("agent_run_overview", () => {
  test("shows the run's outcome, steps, tokens, timings and tool calls", async () => {
    const { data, error } = await (await clientAs(owner)).from("agent_run_overview").select("*").eq("run_id", run);
    expect(error).toBeNull();
    expect(data).toEqual([
      expect.objectContaining({
        thread_id: thread,
        thread_title: "What's on today?",
        status: "succeeded",
        error_code: null,
        step_count: 3,
        tool_calls: 2,
        failed_tool_calls: 1,
        tool_error_codes: ["INVALID_ACTION_INPUT"],
        input_tokens: 1200,
        output_tokens: 80,
        total_tokens: 1280,
        intent_model: "gpt-x-mini",
        execution_model: "gpt-x",
        intent_ms: 310,
        execution_ms: 1450,
        report_ms: null,
        total_ms: 1800,
      }),
    ]);
  });

  test("is security invoker: another user sees none of it, anon is refused", async () => {
    const seen = await (await clientAs(other)).from("agent_run_overview").select("run_id").eq("run_id", run);
    expect(seen).toMatchObject({ error: null, data: [] });
    const anon = await anonClient().from("agent_run_overview").select("run_id").limit(1);
    expect(anon.error).not.toBeNull();
  });

  test("values a user planted in its own records read as null, and the view still answers", async () => {
    const planted = `run-${crypto.randomUUID()}`;
    const plantedThread = `views-${crypto.randomUUID()}`;
    expect((await startRun(owner, plantedThread, planted, "x", { p_models: { intent: ["not", "text"], execution: 7 } })).error).toBeNull();
    const finished = await finishRun(owner, planted, {
      p_usage: { input_tokens: "1e400", output_tokens: { nested: 1 }, total_tokens: null },
      p_stage_timings: { total_ms: "'; drop table runs; --" },
      p_messages: [
        toolMessage("odd", { status: 42, error_code: ["A"], module: {}, summary_version: "1" }),
        { role: "tool", content: "", metadata: { attachments: "many" } },
      ],
    });
    expect(finished.error).toBeNull();
    const client = await clientAs(owner);
    const { data, error } = await client.from("agent_run_overview").select("*").eq("run_id", planted).single();
    expect(error).toBeNull();
    expect(data).toMatchObject({
      input_tokens: null,
      output_tokens: null,
      total_tokens: null,
      total_ms: null,
      intent_model: null,
      execution_model: null,
      tool_calls: 2,
      failed_tool_calls: 0,
      tool_error_codes: null,
    });
    const messages = await client.from("agent_thread_messages").select("*").eq("thread_id", plantedThread).order("position");
    expect(messages.error).toBeNull();
    expect(messages.data?.at(-2)).toMatchObject({ tool_status: null, error_code: null, module: null, summary_version: null });
    expect(messages.data?.at(-1)).toMatchObject({ attachments: 0 });
  });
});

describe("agent_thread_messages", () => {
  test("lists the thread in order with each tool call's summary, method and outcome", async () => {
    const { data, error } = await (await clientAs(owner))
      .from("agent_thread_messages")
      .select("position, role, text_or_summary, tool_name, module, method, tool_status, error_code, summary_version, attachments")
      .eq("thread_id", thread)
      .order("position");
    expect(error).toBeNull();
    expect(data).toEqual([
      {
        position: 1,
        role: "user",
        text_or_summary: "What's on today?",
        tool_name: null,
        module: null,
        method: null,
        tool_status: null,
        error_code: null,
        summary_version: null,
        attachments: 0,
      },
      expect.objectContaining({
        position: 2,
        role: "tool",
        text_or_summary: "calendar.read failed: invalid input",
        tool_status: "failure",
        error_code: "INVALID_ACTION_INPUT",
      }),
      expect.objectContaining({
        position: 3,
        role: "tool",
        module: "calendar",
        method: "read",
        tool_status: "success",
        summary_version: 1,
      }),
      expect.objectContaining({ position: 4, role: "assistant", text_or_summary: "You have two meetings." }),
    ]);
    const seen = await (await clientAs(other)).from("agent_thread_messages").select("position").eq("thread_id", thread);
    expect(seen).toMatchObject({ error: null, data: [] });
  });
});
