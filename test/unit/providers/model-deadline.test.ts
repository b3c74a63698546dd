// A provider that goes silent, through the real @ai-sdk/openai provider over HTTP: the scripted
// server takes the request and holds its answer. The call's deadline aborts the provider's fetch,
// so the intent stage goes on without hints and the tool loop ends with ModelSilent, which the
// run reports as MODEL_UNAVAILABLE; after the deadline, not before, and without a second request
// (a silent call is not retried).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { runIntentStage } from "../../../functions/agent/runtime/intent.ts";
import { ModelSilent } from "../../../functions/agent/runtime/model-deadline.ts";
import { describeModelFailure } from "../../../functions/agent/runtime/model-errors.ts";
import { type LoopPart, toolLoop } from "../../../functions/agent/runtime/tool-loop.ts";
import { openAiModels } from "../../../functions/lib/openai-models.ts";
import { type ScriptedOpenAI, startScriptedOpenAI } from "../../support/openai-server/server.ts";

const IDLE_MS = 300;

describe.each(["chat", "responses"] as const)("a silent provider on the %s API", (api) => {
  let server: ScriptedOpenAI;
  let release: () => void = () => {};
  beforeAll(async () => {
    server = await startScriptedOpenAI();
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.reset();
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.planStructured({ text: "{}", after: held });
    server.planTurns({ text: "too late", after: held });
  });
  afterEach(() => release());
  const model = () => openAiModels({ api, baseUrl: server.baseUrl, apiKey: server.apiKey })("gpt-test");

  test("the intent stage gives up after the deadline and the run goes on without hints", async () => {
    const began = Date.now();
    const result = await runIntentStage({ model: model(), conversation: [{ role: "user", text: "hi" }], idleTimeoutMs: IDLE_MS });
    expect(Date.now() - began).toBeGreaterThanOrEqual(IDLE_MS - 5);
    expect(result.fallback).toEqual({ reason: "model_error", error: "ModelSilent" });
    expect(result.output).toEqual({ objective: "hi", requires_tool: true });
    expect(server.requests).toHaveLength(1);
  });

  test("the tool loop ends its step with ModelSilent, which the run reports as the model being unavailable", async () => {
    const began = Date.now();
    const parts: LoopPart[] = [];
    for await (const part of toolLoop({
      model: model(),
      instructions: "answer",
      messages: [{ role: "user", content: "hi" }],
      maxSteps: 7,
      abortSignal: new AbortController().signal,
      idleTimeoutMs: IDLE_MS,
    }))
      parts.push(part);
    expect(Date.now() - began).toBeGreaterThanOrEqual(IDLE_MS - 5);
    expect(parts).toEqual([{ type: "error", error: expect.any(ModelSilent) }]);
    expect(describeModelFailure((parts[0] as { error: unknown }).error)).toEqual({
      code: "MODEL_UNAVAILABLE",
      status: undefined,
      message: "the language model stopped answering; please try again",
    });
    expect(server.requests).toHaveLength(1);
  });
});
