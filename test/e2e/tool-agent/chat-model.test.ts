// /agent/chat with a model configured, against the scripted OpenAI-compatible server (the real
// Chat Completions wire format over HTTP): the model phrases the reply in the request's language
// from the rules' choice, and a failing model leaves the rules' reply in place.
import { afterAll, beforeAll, expect, test } from "vitest";
import { registerSeedTools } from "../../../supabase/local/tool-agent-dev.ts";
import { type ScriptedOpenAI, startScriptedOpenAI } from "../../support/openai-server/server.ts";
import { startToolAgentDev, type ToolAgentDev } from "../../support/tool-agent-dev.ts";

let agent: ToolAgentDev;
let model: ScriptedOpenAI;

beforeAll(async () => {
  model = await startScriptedOpenAI();
  agent = await startToolAgentDev({
    TOOL_AGENT_MODEL_API_KEY: model.apiKey,
    TOOL_AGENT_MODEL_BASE_URL: model.baseUrl,
    TOOL_AGENT_CHAT_MODEL: "router-test-model",
    TOOL_AGENT_MODEL_TIMEOUT_MS: "3000",
  });
  await registerSeedTools(agent.url, agent.keys.admin);
}, 90_000);
afterAll(async () => {
  await agent?.dev.stop();
  await model?.close();
});

const chat = async (message: string) => (await agent.call("/agent/chat", { body: { message }, key: agent.keys.search })).json();

test("the model phrases the reply; the rules still choose the tools", async () => {
  model.reset();
  model.planTurns({ text: "用 unit_convert 可以把公里换算成英里。" });
  const answer = await chat("我想把公里换算成英里，有单位换算的工具吗");
  expect(answer).toMatchObject({ match: "fuzzy", reply: "用 unit_convert 可以把公里换算成英里。", reply_source: "model" });
  expect(answer.tools[0].tool_id).toBe("unit_convert");

  const [request] = model.requests;
  expect(request!.path).toBe("/v1/chat/completions");
  expect(request!.body.model).toBe("router-test-model");
  const messages = request!.body.messages as { role: string; content: string }[];
  expect(messages[0]!.content).toContain("in Chinese");
  const sent = JSON.parse(messages.at(-1)!.content);
  expect(sent).toMatchObject({ match: "fuzzy", tools: [expect.objectContaining({ tool_id: "unit_convert" })] });
});

test("a model that fails leaves the rules' reply, and the request still answers", async () => {
  model.reset();
  model.planTurns({ status: 500, message: "upstream exploded" });
  const answer = await chat("convert units please");
  expect(answer).toMatchObject({ match: "fuzzy", reply_source: "rules" });
  expect(answer.reply).toMatch(/^Found \d+ tools? that may fit/);
  expect(model.requests.length).toBe(1); // no retries on the request path
});
