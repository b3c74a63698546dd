// POST /api/v1/agent/runs inside workerd, against the real data plane, with the model
// scripted per case. Each stream is also put through AG-UI's own verifier.

import { env } from "cloudflare:workers";
import { APICallError } from "ai";
import { afterEach, beforeAll, describe, expect, inject, test, vi } from "vitest";
import { BUDGET_SPENT_NOTE } from "../../functions/agent/runtime/run-agent.ts";
import { SEEDED_USERS } from "../../supabase/local/auth-tokens.ts";
import { scriptedStream } from "../support/scripted-model.ts";
import { EventType, ofType, runAgentRequest, runInput, tokenFor, verify } from "./support/agent.ts";

const ALICE = SEEDED_USERS.alice.id;
const BOB = SEEDED_USERS.bob.id;
const TEAM_LUNCH = "b0000000-0000-4000-8000-000000000001";
const JWT_LIKE = /eyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]*/;
const today = new Date().toISOString().slice(0, 10);
let aliceToken: string;

beforeAll(async () => {
  aliceToken = await tokenFor(ALICE);
});

type Events = Awaited<ReturnType<typeof runAgentRequest>>["events"];

const results = (events: Events) =>
  ofType(events, EventType.TOOL_CALL_RESULT).map((event) => ({ ...event, parsed: JSON.parse(event.content as string) }));

const answerText = (events: Events) =>
  ofType(events, EventType.TEXT_MESSAGE_CONTENT)
    .map((event) => event.delta)
    .join("");

/** Invariants every run must keep, whatever happened in it. */
async function expectWellFormed(events: Events, text: string) {
  await verify(events);
  expect(events[0]?.type).toBe(EventType.RUN_STARTED);
  const terminal = events.findIndex((event) => event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR);
  expect(terminal).toBe(events.length - 1);
  for (const start of ofType(events, EventType.TOOL_CALL_START)) {
    const id = start.toolCallId;
    expect(events.filter((event) => event.toolCallId === id).map((event) => event.type)).toEqual([
      EventType.TOOL_CALL_START,
      EventType.TOOL_CALL_ARGS,
      EventType.TOOL_CALL_END,
      EventType.TOOL_CALL_RESULT,
    ]);
  }
  for (const end of ofType(events, EventType.TEXT_MESSAGE_END)) expect(Object.keys(end).sort()).toEqual(["messageId", "timestamp", "type"]);
  // Every tool call names the assistant message of the model step that made it.
  for (const start of ofType(events, EventType.TOOL_CALL_START)) expect(start.parentMessageId).toEqual(expect.any(String));
  expect(text).not.toContain(aliceToken);
  expect(text).not.toMatch(JWT_LIKE);
}

describe("runs that succeed", () => {
  test("create an event: intent, a tool call with its card, a streamed answer", async () => {
    const title = `Dentist ${crypto.randomUUID().slice(0, 6)}`;
    const { response, events, text, execution } = await runAgentRequest({
      token: aliceToken,
      input: runInput(`Put "${title}" in my calendar tomorrow at 4pm`),
      script: {
        intent: { objective: "create an event", requires_tool: true, selected_skill: "calendar", intended_action: "create_event" },
        steps: [
          {
            tool: "project_cli",
            input: {
              module: "calendar",
              method: "create",
              input: { title, start_at: "2026-12-01T16:00:00Z", end_at: "2026-12-01T17:00:00Z", timezone: "UTC" },
            },
          },
          { text: `Done: ${title} is on your calendar.` },
        ],
      },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    await expectWellFormed(events, text);
    expect(
      events
        .map((event) =>
          event.type === EventType.STEP_STARTED || event.type === EventType.STEP_FINISHED ? `${event.type}:${event.stepName}` : undefined,
        )
        .filter(Boolean),
    ).toEqual([
      "STEP_STARTED:intent",
      "STEP_FINISHED:intent",
      "STEP_STARTED:execution",
      "STEP_FINISHED:execution",
      "STEP_STARTED:report",
      "STEP_FINISHED:report",
    ]);
    const [result] = results(events);
    expect(result!.parsed).toMatchObject({ ok: true, module: "calendar", method: "create", data: { event: { title } } });
    expect(result!.metadata).toMatchObject({ tool_name: "project_cli", status: "success", summary: expect.stringContaining(title) });
    expect(result!.metadata).toHaveProperty("ui_schema.title");
    expect(answerText(events)).toBe(`Done: ${title} is on your calendar.`);
    // Streamed, not one blob: the first delta at once, the burst behind it merged (coalesced-deltas.ts).
    expect(ofType(events, EventType.TEXT_MESSAGE_CONTENT).length).toBeGreaterThanOrEqual(2);
    // Two model steps, two assistant messages: the tool call's and the answer's.
    const [call] = ofType(events, EventType.TOOL_CALL_START);
    const [answer] = ofType(events, EventType.TEXT_MESSAGE_START);
    expect(call!.parentMessageId).not.toBe(answer!.messageId);
    // RUN_FINISHED carries the tokens the provider reported: intent 100 + 10, two execution steps 2 x (100 + 10).
    expect(events.at(-1)).toMatchObject({
      type: EventType.RUN_FINISHED,
      result: {
        step_count: 2,
        usage: {
          input_tokens: 300,
          output_tokens: 30,
          total_tokens: 330,
          by_stage: {
            intent: { input_tokens: 100, output_tokens: 10, total_tokens: 110 },
            execution: { input_tokens: 200, output_tokens: 20, total_tokens: 220 },
          },
        },
      },
      // The protocol's own field: one entry per provider and model.
      usage: [
        { provider: "mock", model: "mock-intent", inputTokens: 100, outputTokens: 10, totalTokens: 110 },
        { provider: "mock", model: "mock-execution", inputTokens: 200, outputTokens: 20, totalTokens: 220 },
      ],
    });
    // The worker saw the ENV section and the preloaded card, and no chat history.
    const prompt = JSON.stringify(execution.doStreamCalls[0]!.prompt);
    expect(prompt).toContain("USER_CONTEXT_JSON");
    expect(prompt).toContain("calendar.create: a new event");
    expect(execution.doStreamCalls[0]!.prompt.filter((message) => message.role === "user")).toHaveLength(1);
  });

  test("read a day after reading the skill card", async () => {
    const { events, text, execution } = await runAgentRequest({
      token: aliceToken,
      input: runInput("What's on today?", { forwardedProps: { timezone: "UTC" } }),
      script: {
        intent: { objective: "list today's events", requires_tool: true },
        steps: [
          { tool: "view_skill_file", input: { path: "calendar/actions/list_day.md" } },
          { tool: "project_cli", input: { module: "calendar", method: "read", input: { mode: "day", date: today, timezone: "UTC" } } },
          { text: "You have a project sync at 10:00 and team lunch at 12:00." },
        ],
      },
    });
    await expectWellFormed(events, text);
    const [skill, read] = results(events);
    expect(skill!.parsed).toMatchObject({ ok: true, path: "calendar/actions/list_day.md" });
    expect(skill!.metadata).toMatchObject({ tool_name: "view_skill_file", ui_schema: null });
    expect(read!.parsed.data.items.map((item: { title: string }) => item.title)).toEqual(
      expect.arrayContaining(["Project sync", "Team lunch"]),
    );
    const system = execution.doStreamCalls[0]!.prompt[0]!;
    expect(system.role === "system" && system.content).toContain(`"timezone_effective":"UTC"`);
  });

  test("read by id after the intent stage extracted it, skipping the skill read", async () => {
    const { events, text, execution } = await runAgentRequest({
      token: aliceToken,
      input: runInput(`Where is ${TEAM_LUNCH}?`),
      script: {
        intent: {
          objective: "event details",
          requires_tool: true,
          selected_skill: "calendar",
          intended_action: "get_event",
          known_entities: [{ type: "event_id", value: TEAM_LUNCH }],
        },
        steps: [
          { tool: "project_cli", input: { module: "calendar", method: "read", input: { mode: "event", event_id: TEAM_LUNCH } } },
          { text: "Team lunch is at the Noodle bar." },
        ],
      },
    });
    await expectWellFormed(events, text);
    expect(results(events)[0]!.parsed).toMatchObject({
      ok: true,
      data: { event: { id: TEAM_LUNCH, title: "Team lunch", access: "view" } },
    });
    const system = JSON.stringify(execution.doStreamCalls[0]!.prompt[0]);
    expect(system).toContain("calendar/actions/get_event.md");
    expect(system).toContain(TEAM_LUNCH);
  });

  test("share an event by phone", async () => {
    const created = await runAgentRequest({
      token: aliceToken,
      input: runInput("create"),
      script: {
        intent: { objective: "x", requires_tool: true },
        steps: [
          {
            tool: "project_cli",
            input: {
              module: "calendar",
              method: "create",
              input: { title: "Board game night", start_at: "2026-12-05T19:00:00Z", timezone: "UTC" },
            },
          },
          { text: "ok" },
        ],
      },
    });
    const eventId = results(created.events)[0]!.parsed.data.event.id as string;
    const { events, text } = await runAgentRequest({
      token: aliceToken,
      input: runInput("Invite Bob to board game night"),
      script: {
        intent: { objective: "share", requires_tool: true, selected_skill: "calendar", intended_action: "share_event" },
        steps: [
          { tool: "project_cli", input: { module: "contacts", method: "read", input: { name: "Bob" } } },
          {
            tool: "project_cli",
            input: {
              module: "calendar",
              method: "share",
              input: { event_id: eventId, invitee: { phone: "+15550000002" }, permissions: { view: true } },
            },
          },
          { text: "Bob is invited." },
        ],
      },
    });
    await expectWellFormed(events, text);
    const share = results(events)[1]!;
    expect(share.parsed).toMatchObject({ ok: true, data: { invitation: { status: "pending", invitee_user_id: BOB } } });
    expect(share.metadata).toMatchObject({ status: "success", summary: expect.stringContaining("Board game night") });
  });
});

describe("the old failure loop", () => {
  test("a model that keeps sending event_id without mode ends within 7 steps with a helpful answer", async () => {
    const bad = { tool: "project_cli", input: { module: "calendar", method: "read", input: { event_id: TEAM_LUNCH } } };
    const { events, text, execution } = await runAgentRequest({
      token: aliceToken,
      input: runInput(`Tell me about ${TEAM_LUNCH}`),
      script: {
        intent: { objective: "event details", requires_tool: true },
        steps: [bad, bad, bad, bad, bad, bad, bad, { text: "Sorry, I could not look that event up this time." }],
      },
    });
    await expectWellFormed(events, text);
    expect(events.at(-1)?.type).toBe(EventType.RUN_FINISHED);
    const toolResults = results(events);
    expect(toolResults).toHaveLength(7);
    for (const result of toolResults)
      expect(result.parsed).toMatchObject({
        ok: false,
        error: { code: "INVALID_ACTION_INPUT", details: { missing_fields: ["input.mode"] } },
      });
    expect(toolResults[0]!.parsed.error.details.suggestion).toContain('"mode": "event"');
    expect(answerText(events)).toContain("could not look that event up");
    expect(execution.doStreamCalls).toHaveLength(8); // 7 tool steps + 1 report without tools
    expect(execution.doStreamCalls[7]!.tools ?? []).toHaveLength(0);
    expect(JSON.stringify(execution.doStreamCalls[7]!.prompt)).toContain(BUDGET_SPENT_NOTE);
    // The answer is asked for with everything the seven steps found, not the last step alone.
    const report = execution.doStreamCalls[7]!.prompt;
    expect(report.filter((message) => message.role === "assistant")).toHaveLength(7);
    expect(report.filter((message) => message.role === "tool")).toHaveLength(7);
  });
});

describe("runs that fail", () => {
  const outage = (action: "stop" | "start") => fetch(`${inject("localStack").outage.controlUrl}/postgres/${action}`, { method: "POST" });
  afterEach(async () => {
    await outage("start");
  });

  test("the intent model cannot be reached: the run goes on without hints and answers", async () => {
    const { events, text } = await runAgentRequest({
      token: aliceToken,
      input: runInput("hello"),
      script: {
        intent: new APICallError({
          message: "upstream 500 with secret sk-123",
          url: "https://api.example/v1",
          requestBodyValues: {},
          statusCode: 500,
        }),
        steps: [{ text: "Hello!" }],
      },
    });
    await expectWellFormed(events, text);
    expect(events.find((event) => event.type === EventType.CUSTOM)).toMatchObject({
      name: "intent",
      value: { objective: "hello", requires_tool: true },
    });
    expect(events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED });
    expect(text).toContain("Hello!");
    expect(text).not.toContain("sk-123");
  });

  test("the execution model fails mid-run: RUN_ERROR after the tool result", async () => {
    const { events, text } = await runAgentRequest({
      token: aliceToken,
      input: runInput("today?"),
      script: {
        intent: { objective: "today", requires_tool: true },
        steps: [
          { tool: "project_cli", input: { module: "calendar", method: "read", input: { mode: "day", date: today, timezone: "UTC" } } },
          { fail: new Error("connection reset") },
        ],
      },
    });
    await expectWellFormed(events, text);
    expect(ofType(events, EventType.TOOL_CALL_RESULT)).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: EventType.RUN_ERROR, code: "MODEL_UNAVAILABLE" });
  });

  test("the execution model's stream breaks mid-answer: what was streamed stays, then RUN_ERROR MODEL_UNAVAILABLE", async () => {
    const { events, text } = await runAgentRequest({
      token: aliceToken,
      input: runInput("hi"),
      script: { intent: { objective: "greet", requires_tool: false }, steps: [{ brokenText: "Hello, I was about to " }] },
    });
    await expectWellFormed(events, text);
    expect(answerText(events)).toBe("Hello, I was about to ");
    expect(events.at(-1)).toMatchObject({ type: EventType.RUN_ERROR, code: "MODEL_UNAVAILABLE" });
  });

  test("the execution model goes silent after a tool call: RUN_ERROR MODEL_UNAVAILABLE once AGENT_MODEL_IDLE_TIMEOUT_SECONDS pass", async () => {
    const { events, text } = await runAgentRequest({
      token: aliceToken,
      input: runInput("today?"),
      env: { AGENT_MODEL_IDLE_TIMEOUT_SECONDS: "1" },
      script: {
        intent: { objective: "today", requires_tool: true },
        steps: [
          { tool: "project_cli", input: { module: "calendar", method: "read", input: { mode: "day", date: today, timezone: "UTC" } } },
          { silentAfter: "Let me " },
        ],
      },
    });
    await expectWellFormed(events, text);
    expect(ofType(events, EventType.TOOL_CALL_RESULT)).toHaveLength(1);
    expect(answerText(events)).toBe("Let me ");
    expect(events.at(-1)).toMatchObject({
      type: EventType.RUN_ERROR,
      code: "MODEL_UNAVAILABLE",
      message: "the language model stopped answering; please try again",
    });
  });

  test("the database is down before the run: RUN_ERROR DATABASE_UNAVAILABLE, no model call", async () => {
    await outage("stop");
    const { events, text, execution, intent } = await runAgentRequest({
      token: aliceToken,
      env: { SUPABASE_URL: inject("localStack").outage.supabaseUrl },
      input: runInput("today?"),
      script: { intent: { objective: "today", requires_tool: true }, steps: [{ text: "never reached" }] },
    });
    await expectWellFormed(events, text);
    expect(events.map((event) => event.type)).toEqual([EventType.RUN_STARTED, EventType.RUN_ERROR]);
    expect(events.at(-1)).toMatchObject({ code: "DATABASE_UNAVAILABLE" });
    expect(intent.doStreamCalls).toHaveLength(0);
    expect(execution.doStreamCalls).toHaveLength(0);
  });

  test("the database goes down mid-run: the tool result says so, RUN_ERROR, and history holds nothing half-written", async () => {
    const { scriptedModels, parseSse } = await import("./support/agent.ts");
    const { createApp } = await import("../../functions/agent/app.ts");
    const outageEnv = { ...env, SUPABASE_URL: inject("localStack").outage.supabaseUrl };
    const read = {
      tool: "project_cli",
      input: { module: "calendar", method: "read", input: { mode: "day", date: today, timezone: "UTC" } },
    };
    const scripted = scriptedModels({ intent: { objective: "today", requires_tool: true }, steps: [read, { text: "never reached" }] });
    const firstStep = scripted.execution.doStream;
    let calls = 0;
    scripted.execution.doStream = async (options) => {
      if (calls++ === 0) await outage("stop"); // the run was recorded; now the database goes away
      return (firstStep as (o: typeof options) => ReturnType<typeof firstStep>)(options);
    };
    const input = runInput("What's on today?");
    const response = await createApp({ models: () => scripted.models }).request(
      "/api/v1/agent/runs",
      {
        method: "POST",
        headers: { authorization: `Bearer ${aliceToken}`, "content-type": "application/json" },
        body: JSON.stringify(input),
      },
      outageEnv,
    );
    const text = await response.text();
    const events = parseSse(text);
    await expectWellFormed(events, text);
    expect(JSON.parse(ofType(events, EventType.TOOL_CALL_RESULT)[0]!.content as string)).toMatchObject({
      ok: false,
      error: { code: "UPSTREAM_UNAVAILABLE", retryable: true },
    });
    expect(events.at(-1)).toMatchObject({ type: EventType.RUN_ERROR, code: "DATABASE_UNAVAILABLE" });

    await outage("start");
    const history = await createApp().request(
      `/api/v1/agent/runs/${input.threadId}/history`,
      { headers: { authorization: `Bearer ${aliceToken}` } },
      outageEnv,
    );
    expect(history.status).toBe(200);
    const body = await history.json<{ messages: Array<{ role: string; content?: string }> }>();
    expect(body.messages).toEqual([expect.objectContaining({ role: "user", content: "What's on today?" })]);
  });

  test("no token: 401 JSON before any stream", async () => {
    const { response, text } = await runAgentRequest({
      token: "",
      input: runInput("hi"),
      script: { intent: { objective: "x", requires_tool: false }, steps: [] },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(JSON.parse(text)).toMatchObject({ error: { code: "UNAUTHENTICATED" } });
  });

  test.each([
    ["not JSON at all", "{"],
    ["no messages", { threadId: "t", runId: "r", state: {}, tools: [], context: [] }],
    ["last message from the assistant", runInput("x", { messages: [{ id: "1", role: "assistant", content: "hi" }] })],
    [
      "an http image",
      runInput("x", {
        messages: [{ id: "1", role: "user", content: [{ type: "image", source: { type: "url", value: "http://example.com/a.png" } }] }],
      }),
    ],
  ])("a malformed request (%s): 400 JSON, no stream", async (_label, input) => {
    const { response, text } = await runAgentRequest({
      token: aliceToken,
      input,
      script: { intent: { objective: "x", requires_tool: false }, steps: [] },
    });
    expect(response.status).toBe(400);
    expect(JSON.parse(text)).toMatchObject({ error: { code: "INVALID_REQUEST" } });
  });
});

test("a client that disconnects mid-stream causes no uncaught error", async () => {
  const { scriptedModels } = await import("./support/agent.ts");
  const { createApp } = await import("../../functions/agent/app.ts");
  const scripted = scriptedModels({ intent: { objective: "x", requires_tool: true }, steps: [{ text: "a long answer ".repeat(200) }] });
  const response = await createApp({ models: () => scripted.models }).request(
    "/api/v1/agent/runs",
    {
      method: "POST",
      headers: { authorization: `Bearer ${aliceToken}`, "content-type": "application/json" },
      body: JSON.stringify(runInput("hi")),
    },
    env,
  );
  const reader = response.body!.getReader();
  await reader.read();
  await reader.cancel("gone");
  await new Promise((resolve) => setTimeout(resolve, 50));
});

describe("stage details", () => {
  test("an unparsable intent answer is asked for again once, then the run goes on without hints", async () => {
    const { scriptedModels } = await import("./support/agent.ts");
    const { createApp } = await import("../../functions/agent/app.ts");
    const scripted = scriptedModels({ intent: { objective: "unused", requires_tool: true }, steps: [{ text: "Hello!" }] });
    let calls = 0;
    scripted.intent.doStream = async () => {
      calls++;
      return scriptedStream({ text: "not json at all" }, 0);
    };
    const response = await createApp({ models: () => scripted.models }).request(
      "/api/v1/agent/runs",
      {
        method: "POST",
        headers: { authorization: `Bearer ${aliceToken}`, "content-type": "application/json" },
        body: JSON.stringify(runInput("Say hello")),
      },
      env,
    );
    const { parseSse } = await import("./support/agent.ts");
    const events = parseSse(await response.text());
    expect(calls).toBe(2);
    expect(ofType(events, EventType.CUSTOM)[0]).toMatchObject({ name: "intent", value: { objective: "Say hello", requires_tool: true } });
    expect(events.at(-1)?.type).toBe(EventType.RUN_FINISHED);
    expect(answerText(events)).toBe("Hello!");
  });

  test("temperature is the provider's unless configured, and the step cap follows AGENT_MAX_STEPS", async () => {
    const step = { tool: "project_cli", input: { module: "memory", method: "read", input: {} } };
    const unset = await runAgentRequest({
      token: aliceToken,
      input: runInput("hi"),
      script: { intent: { objective: "x", requires_tool: true }, steps: [{ text: "hi" }] },
    });
    expect(unset.execution.doStreamCalls[0]!.temperature).toBeUndefined();
    const set = await runAgentRequest({
      token: aliceToken,
      input: runInput("hi"),
      env: { AGENT_TEMPERATURE: "0.2", AGENT_MAX_STEPS: "2" },
      script: { intent: { objective: "x", requires_tool: true }, steps: [step, step, { text: "done" }] },
    });
    expect(set.execution.doStreamCalls[0]!.temperature).toBe(0.2);
    expect(ofType(set.events, EventType.TOOL_CALL_RESULT)).toHaveLength(2);
    expect(set.execution.doStreamCalls).toHaveLength(3); // 2 steps + the report call
  });

  test("what the provider warns about a request is logged by kind and subject, without its details", async () => {
    const warn = vi.spyOn(console, "warn");
    try {
      const details = "the provider's own words about temperature";
      const { events } = await runAgentRequest({
        token: aliceToken,
        input: runInput("hi"),
        script: {
          intent: { objective: "x", requires_tool: false },
          steps: [
            {
              text: "hi",
              warnings: [
                { type: "unsupported", feature: "temperature", details },
                { type: "other", message: details },
              ],
            },
          ],
        },
      });
      expect(events.at(-1)?.type).toBe(EventType.RUN_FINISHED);
      const lines = warn.mock.calls.map((call) => String(call[0])).filter((line) => line.includes('"agent.model_warnings"'));
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({ warnings: ["unsupported:temperature", "other"], run_id: expect.any(String) });
      expect(lines[0]).not.toContain(details);
    } finally {
      warn.mockRestore();
    }
  });

  test("an image in the request reaches the worker model as an image part", async () => {
    const data = btoa("png-bytes");
    const { execution, events } = await runAgentRequest({
      token: aliceToken,
      input: runInput("x", {
        messages: [
          {
            id: "m",
            role: "user",
            content: [
              { type: "text", text: "Add this poster's event" },
              { type: "image", source: { type: "data", value: data, mimeType: "image/png" } },
            ],
          },
        ],
      }),
      script: { intent: { objective: "read the poster", requires_tool: true }, steps: [{ text: "I see a poster." }] },
    });
    expect(events.at(-1)?.type).toBe(EventType.RUN_FINISHED);
    const user = execution.doStreamCalls[0]!.prompt.find((message) => message.role === "user");
    expect(JSON.stringify(user)).toContain('"type":"file"');
    expect(JSON.stringify(user)).toContain("image/png");
  });

  test("PROJECT_CLI_ALLOW narrows what the agent may run", async () => {
    const { events } = await runAgentRequest({
      token: aliceToken,
      input: runInput("delete it"),
      env: { PROJECT_CLI_ALLOW: "calendar.read" },
      script: {
        intent: { objective: "x", requires_tool: true },
        steps: [
          { tool: "project_cli", input: { module: "calendar", method: "delete", input: { event_id: TEAM_LUNCH } } },
          { text: "I can't delete events here." },
        ],
      },
    });
    expect(JSON.parse(ofType(events, EventType.TOOL_CALL_RESULT)[0]!.content as string)).toMatchObject({
      ok: false,
      error: { code: "METHOD_NOT_ALLOWED" },
    });
  });
});
