// Whole agent runs through the real @ai-sdk/openai provider against a scripted OpenAI-compatible
// server that enforces OpenAI's strict-schema rules, on `wrangler dev` with the real data plane.
// No mock model in the path: the Worker speaks HTTP to the scripted server, for both APIs.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { type ScriptedOpenAI, startScriptedOpenAI } from "../support/openai-server/server.ts";
import { parseSseEvents, type SseEvent } from "../support/sse-events.ts";
import { startWranglerDev, type WranglerDev } from "../support/wrangler-dev.ts";

const TEAM_LUNCH = "b0000000-0000-4000-8000-000000000001";
const SECRET_MARKER = "provider-body-secret-7f3a";
// The intent answer in strict form: every key present, the unknown ones null.
const intentAnswer = JSON.stringify({
  objective: "details of the team lunch",
  requires_tool: true,
  selected_skill: "calendar",
  intended_action: "get_event",
  known_entities: [{ type: "event_id", value: TEAM_LUNCH }],
  known_time_range: null,
  missing_fields: null,
  context_summary: null,
});
const readLunch = {
  name: "project_cli",
  arguments: { module: "calendar", method: "read", input: { mode: "event", event_id: TEAM_LUNCH } },
};

let server: ScriptedOpenAI;
const workers: Partial<Record<"chat" | "responses", WranglerDev>> = {};

beforeAll(async () => {
  server = await startScriptedOpenAI();
  const vars = (api: string) => ({ AGENT_MODEL_API_KEY: server.apiKey, AGENT_MODEL_BASE_URL: server.baseUrl, AGENT_MODEL_API: api });
  workers.chat = await startWranglerDev({ vars: vars("chat") });
  workers.responses = await startWranglerDev({ vars: vars("responses"), plane: { plane: workers.chat.plane, keys: workers.chat.keys } });
}, 120_000);

afterAll(async () => {
  await workers.responses?.stop();
  await workers.chat?.stop();
  await server?.close();
});

beforeEach(() => server.reset());

async function run(api: "chat" | "responses", text: string, threadId = `thread-${crypto.randomUUID()}`) {
  const worker = workers[api]!;
  const token = await worker.token();
  const response = await fetch(`${worker.url}/api/v1/agent/runs`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify({
      threadId,
      runId: `run-${crypto.randomUUID()}`,
      messages: [{ id: crypto.randomUUID(), role: "user", content: text }],
      state: {},
      tools: [],
      context: [],
      forwardedProps: { timezone: "UTC" },
    }),
  });
  const body = await response.text();
  const events = parseSseEvents(body);
  const history = await fetch(`${worker.url}/api/v1/agent/history?threadId=${threadId}`, {
    headers: { authorization: `Bearer ${token}` },
  }).then((r) => r.text());
  return { status: response.status, body, events, history, worker };
}

const answerText = (events: SseEvent[]) =>
  events
    .filter((e) => e.type === "TEXT_MESSAGE_CONTENT")
    .map((e) => e.delta)
    .join("");

describe.each(["chat", "responses"] as const)("AGENT_MODEL_API=%s", (api) => {
  const path = api === "chat" ? "/v1/chat/completions" : "/v1/responses";

  test("a run calls project_cli on the real data plane and answers", async () => {
    server.planStructured({ text: intentAnswer });
    server.planTurns({ toolCalls: [readLunch] }, { text: "Team lunch is at the Noodle bar." });
    const { events, history } = await run(api, "Where is the team lunch?");

    expect(events.at(-1)).toMatchObject({ type: "RUN_FINISHED" });
    expect(events.find((e) => e.type === "CUSTOM" && e.name === "intent")).toMatchObject({ value: { intended_action: "get_event" } });
    const result = events.find((e) => e.type === "TOOL_CALL_RESULT");
    expect(JSON.parse(String(result?.content))).toMatchObject({
      ok: true,
      data: { event: { id: TEAM_LUNCH, title: "Team lunch", metadata: { location: "Noodle bar" } } },
    });
    expect(answerText(events)).toBe("Team lunch is at the Noodle bar.");
    expect(history).toContain("Team lunch is at the Noodle bar.");

    // What the provider received: the chosen API, the intent schema sent strict, and each
    // tool's strictness declared explicitly.
    expect(server.requests.map((r) => [r.path, r.status])).toEqual([
      [path, 200],
      [path, 200],
      [path, 200],
    ]);
    const [intent, firstTurn] = server.requests;
    if (api === "chat") {
      expect(intent!.body.response_format).toMatchObject({ type: "json_schema", json_schema: { strict: true } });
      expect(firstTurn!.body.tools).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ function: expect.objectContaining({ name: "project_cli", strict: false }) }),
          expect.objectContaining({ function: expect.objectContaining({ name: "view_skill_file", strict: true }) }),
        ]),
      );
    } else {
      expect(intent!.body.text).toMatchObject({ format: { type: "json_schema", strict: true } });
      expect(firstTurn!.body.tools).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ name: "project_cli", strict: false }),
          expect.objectContaining({ name: "view_skill_file", strict: true }),
        ]),
      );
    }
  });

  test("a follow-up in the same thread: the intent request carries the earlier tool turn's id, the worker's carries no history", async () => {
    const threadId = `thread-${crypto.randomUUID()}`;
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const create = {
      module: "calendar",
      method: "create",
      input: { title: "Retro", start_at: `${tomorrow}T09:00:00Z`, end_at: `${tomorrow}T09:30:00Z`, timezone: "UTC" },
    };
    server.planStructured({
      text: JSON.stringify({
        ...JSON.parse(intentAnswer),
        objective: "add a retro",
        intended_action: "create_event",
        known_entities: null,
      }),
    });
    server.planTurns({ toolCalls: [{ name: "project_cli", arguments: create }] }, { text: "Added." });
    const first = await run(api, "Add a retro tomorrow at 9", threadId);
    const eventId = JSON.parse(String(first.events.find((e) => e.type === "TOOL_CALL_RESULT")?.content)).data.event.id as string;

    server.reset();
    server.planStructured({
      text: JSON.stringify({
        ...JSON.parse(intentAnswer),
        objective: "move the retro to 17:00",
        intended_action: "update_event",
        known_entities: [{ type: "event_id", value: eventId }],
        context_summary: `"it" is the Retro created just before (event_id ${eventId})`,
      }),
    });
    const move = { module: "calendar", method: "update", input: { event_id: eventId, patch: { start_at: `${tomorrow}T17:00:00Z` } } };
    server.planTurns({ toolCalls: [{ name: "project_cli", arguments: move }] }, { text: "Moved." });
    const second = await run(api, "Move it to 5pm", threadId);

    expect(second.events.at(-1)).toMatchObject({ type: "RUN_FINISHED" });
    const [intent, firstTurn] = server.requests;
    // The router's request: the earlier turns, the tool turn naming the event by id.
    expect(JSON.stringify(intent!.body)).toContain("Add a retro tomorrow at 9");
    expect(JSON.stringify(intent!.body)).toContain(`event_id ${eventId}`);
    // The worker's request: this message only, and the id through the intent output.
    expect(JSON.stringify(firstTurn!.body)).not.toContain("Add a retro tomorrow at 9");
    expect(JSON.stringify(firstTurn!.body)).toContain("Move it to 5pm");
    expect(JSON.stringify(firstTurn!.body)).toContain(eventId);
    const moved = JSON.parse(String(second.events.find((e) => e.type === "TOOL_CALL_RESULT")?.content));
    expect(moved).toMatchObject({ ok: true, data: { event: { start_at: `${tomorrow}T17:00:00Z`, end_at: `${tomorrow}T17:30:00Z` } } });
  });

  test.each([400, 500])(
    "the intent stage fails with HTTP %i: the run answers without hints, and the fallback is logged",
    async (status) => {
      server.planStructured({ status, message: SECRET_MARKER }, { status, message: SECRET_MARKER });
      server.planTurns({ text: "Hello there." });
      const { events, worker } = await run(api, "hello");
      expect(events.at(-1)).toMatchObject({ type: "RUN_FINISHED" });
      expect(events.find((e) => e.type === "CUSTOM" && e.name === "intent")).toMatchObject({
        value: { objective: "hello", requires_tool: true },
      });
      expect(answerText(events)).toBe("Hello there.");
      await expect
        .poll(() => worker.output())
        .toMatch(new RegExp(`"event":"agent.intent_fallback".*"reason":"model_error".*"status":${status}`));
      expect(worker.output()).not.toContain(SECRET_MARKER);
    },
  );

  test("the execution model rejects the request (400): RUN_ERROR MODEL_REQUEST_REJECTED; no provider body or key reaches the client", async () => {
    server.planStructured({ text: intentAnswer });
    server.planTurns({ status: 400, message: `bad request ${SECRET_MARKER}` });
    const { body, events, history, worker } = await run(api, "Where is the team lunch?");
    expect(events.at(-1)).toMatchObject({
      type: "RUN_ERROR",
      code: "MODEL_REQUEST_REJECTED",
      message: expect.stringContaining("HTTP 400"),
    });
    expect(String(events.at(-1)?.message)).toContain("Retrying will not help");
    await expect.poll(() => worker.output()).toMatch(/"event":"agent.run_failed".*"code":"MODEL_REQUEST_REJECTED"/);
    // Not to the client, and not to the operator's log either (the body may quote the request).
    for (const text of [body, history, worker.output()]) {
      expect(text).not.toContain(SECRET_MARKER);
      expect(text).not.toContain(server.apiKey);
    }
  });

  test("the execution model is down (503 after the retry): RUN_ERROR MODEL_UNAVAILABLE, try again", async () => {
    server.planStructured({ text: intentAnswer });
    server.planTurns({ status: 503, message: SECRET_MARKER }, { status: 503, message: SECRET_MARKER });
    const { body, events, worker } = await run(api, "Where is the team lunch?");
    expect(events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: "MODEL_UNAVAILABLE", message: expect.stringContaining("HTTP 503") });
    await expect.poll(() => worker.output()).toMatch(/"event":"agent.run_failed".*"code":"MODEL_UNAVAILABLE"/);
    expect(body).not.toContain(SECRET_MARKER);
    expect(worker.output()).not.toContain(SECRET_MARKER);
    expect(server.requests.filter((r) => r.status === 503)).toHaveLength(2);
  });
});
