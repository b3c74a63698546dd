// The chat assistant using registered tools: the agent Worker (scripted provider over HTTP) runs
// project_cli's tools module, which reaches the Tool Agent over the real service binding, both
// on `wrangler dev` with one data plane. The model finds a tool, calls it, and the run shows the
// cards; a call with params the tool refuses comes back as a correctable input error.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";
import { registerSeedTools } from "../../../supabase/local/tool-agent-dev.ts";
import { type ScriptedOpenAI, startScriptedOpenAI } from "../../support/openai-server/server.ts";
import { parseSseEvents } from "../../support/sse-events.ts";
import { startToolAgentDev, type ToolAgentDev } from "../../support/tool-agent-dev.ts";
import { startWranglerDev, type WranglerDev } from "../../support/wrangler-dev.ts";

const registry = mkdtempSync(join(tmpdir(), "chat-tools-registry-"));
let toolAgent: ToolAgentDev;
let chat: WranglerDev;
let model: ScriptedOpenAI;

const intent = JSON.stringify({
  objective: "convert 10 km to miles",
  requires_tool: true,
  selected_skill: "tools",
  intended_action: "call",
  known_entities: null,
  known_time_range: null,
  missing_fields: null,
  context_summary: null,
});
const cli = (method: string, input: unknown) => ({ toolCalls: [{ name: "project_cli", arguments: { module: "tools", method, input } }] });

beforeAll(async () => {
  model = await startScriptedOpenAI();
  toolAgent = await startToolAgentDev({}, { registry });
  await registerSeedTools(toolAgent.url, toolAgent.keys.admin);
  chat = await startWranglerDev({
    registry,
    plane: { plane: toolAgent.dev.plane, keys: toolAgent.dev.keys },
    vars: { AGENT_MODEL_API_KEY: model.apiKey, AGENT_MODEL_BASE_URL: model.baseUrl, PROJECT_CLI_ALLOW: "*" },
  });
}, 150_000);
afterAll(async () => {
  await chat?.stop();
  await toolAgent?.dev.stop();
  await model?.close();
  rmSync(registry, { recursive: true, force: true });
});
beforeEach(() => model.reset());

async function run(text: string) {
  const response = await fetch(`${chat.url}/api/v1/agent/runs`, {
    method: "POST",
    headers: { authorization: `Bearer ${await chat.token()}`, "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify({
      threadId: `thread-${crypto.randomUUID()}`,
      runId: `run-${crypto.randomUUID()}`,
      messages: [{ id: crypto.randomUUID(), role: "user", content: text }],
      state: {},
      tools: [],
      context: [],
      forwardedProps: { timezone: "UTC" },
    }),
  });
  return parseSseEvents(await response.text());
}

test("the assistant finds a registered tool, runs it over the binding, and shows both cards", async () => {
  model.planStructured({ text: intent });
  model.planTurns(
    cli("search", { query: "convert kilometres to miles" }),
    cli("call", { tool_id: "unit_convert", params: { value: 10, from: "km", to: "mi" } }),
    { text: "10 km is about 6.21 miles." },
  );
  const events = await run("How many miles is 10 km?");
  expect(events.at(-1)).toMatchObject({ type: "RUN_FINISHED" });

  const results = events.filter((e) => e.type === "TOOL_CALL_RESULT");
  const [search, call] = results.map((e) => JSON.parse(e.content));
  expect(search).toMatchObject({ ok: true, module: "tools", method: "search" });
  expect(search.data.tools[0]).toMatchObject({
    tool_id: "unit_convert",
    params: expect.arrayContaining([expect.objectContaining({ name: "value", required: true })]),
  });
  expect(call).toMatchObject({ ok: true, data: { tool_id: "unit_convert", result: { unit: "mi", kind: "length" } } });
  expect(call.data.result.value).toBeCloseTo(6.2137, 3);
  expect(results.map((e) => e.metadata.ui_schema?.card)).toEqual(["tool_list", "tool_result"]);

  // The Tool Agent ran it for this user: its state says so.
  const [route] = await toolAgent.sql("select state from tool_agent.tool_routes where tool_id = 'unit_convert'");
  expect(route).toMatchObject({ state: "running" });
  // The model saw the tools module in the skills it may read.
  expect(JSON.stringify(model.requests[1]!.body.messages)).toContain("Find and run tools registered with the Tool Agent");
}, 60_000);

test("params the tool refuses come back field by field, for the model to fix", async () => {
  model.planStructured({ text: intent });
  model.planTurns(cli("call", { tool_id: "unit_convert", params: { value: "ten", from: "km" } }), { text: "I need the target unit." });
  const events = await run("Convert ten km");
  const [result] = events.filter((e) => e.type === "TOOL_CALL_RESULT").map((e) => JSON.parse(e.content));
  expect(result).toMatchObject({
    ok: false,
    error: { code: "INVALID_ACTION_INPUT", details: { registry_code: "INVALID_PARAMS", missing_fields: ["params.to"] } },
  });
  expect(result.error.details.invalid_fields).toEqual([expect.objectContaining({ field: "params.value" })]);
}, 60_000);
