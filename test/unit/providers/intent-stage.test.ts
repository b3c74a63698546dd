// The intent stage through the real @ai-sdk/openai provider against the strict scripted server:
// hints when it works; on any failure a plain fallback with the reason, never a thrown error,
// except a cancel, which must still stop the run.
import { createOpenAI } from "@ai-sdk/openai";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { runIntentStage } from "../../../functions/agent/runtime/intent.ts";
import { freePort } from "../../../supabase/local/processes.ts";
import { type ScriptedOpenAI, startScriptedOpenAI } from "../../support/openai-server/server.ts";

const hints = {
  objective: "list today",
  requires_tool: true,
  selected_skill: "calendar",
  intended_action: "list_day",
  known_entities: null,
  known_time_range: "today",
  missing_fields: null,
};
const conversation = [{ role: "user" as const, text: "what's on today?" }];

describe.each(["chat", "responses"] as const)("runIntentStage on the %s API", (api) => {
  let server: ScriptedOpenAI;
  beforeAll(async () => {
    server = await startScriptedOpenAI();
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());
  const model = (baseURL = server.baseUrl) => {
    const provider = createOpenAI({ apiKey: server.apiKey, baseURL });
    return api === "chat" ? provider.chat("gpt-test") : provider.responses("gpt-test");
  };

  test("a strict provider accepts the schema and the hints come back", async () => {
    server.planStructured({ text: JSON.stringify(hints) });
    const result = await runIntentStage({ model: model(), conversation });
    expect(result).toMatchObject({ output: hints, attempts: 1 });
    expect(result.fallback).toBeUndefined();
  });

  test.each([
    [400, 1],
    [401, 1],
    [500, 2],
  ])("HTTP %i (after %i request(s)) falls back with the status", async (status, requests) => {
    server.planStructured({ status }, { status });
    const result = await runIntentStage({ model: model(), conversation });
    expect(result.output).toEqual({ objective: "what's on today?", requires_tool: true });
    expect(result.fallback).toEqual({ reason: "model_error", status, error: expect.any(String) });
    expect(server.requests).toHaveLength(requests);
  });

  test("an unreachable provider falls back without a status", async () => {
    const result = await runIntentStage({ model: model(`http://127.0.0.1:${await freePort()}/v1`), conversation });
    expect(result.fallback).toMatchObject({ reason: "model_error" });
    expect(result.fallback?.status).toBeUndefined();
  });

  test.each([
    ["not JSON", "I think you want the calendar"],
    ["a hint over its length limit", JSON.stringify({ ...hints, selected_skill: "c".repeat(65) })],
  ])("%s twice falls back as malformed output", async (_name, text) => {
    server.planStructured({ text }, { text });
    const result = await runIntentStage({ model: model(), conversation });
    expect(result).toMatchObject({ attempts: 2, fallback: { reason: "malformed_output" } });
  });

  test("a cancel is not a fallback: the stage rejects so the run ends as cancelled", async () => {
    server.planStructured({ text: JSON.stringify(hints) });
    const cancel = new AbortController();
    cancel.abort();
    await expect(runIntentStage({ model: model(), conversation, abortSignal: cancel.signal })).rejects.toThrow();
  });
});
