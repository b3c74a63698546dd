// Token usage on the events that end a run: our per-stage totals in RUN_FINISHED.result, and the
// protocol's own `usage` (one entry per provider and model) on RUN_FINISHED and RUN_ERROR.
import { describe, expect, test } from "vitest";
import { agUi, protocolUsage, runUsage } from "../../../functions/agent/runtime/ag-ui-events.ts";

const modelOf = (stage: string) => ({ provider: "openai", model: stage === "intent" ? "small" : "large" });

describe("protocolUsage", () => {
  test("stages served by the same model are one entry; another model is its own", () => {
    const stages = {
      intent: { inputTokens: 100, outputTokens: 10, totalTokens: 110 },
      execution: { inputTokens: 200, outputTokens: 20, totalTokens: 220 },
      report: { inputTokens: 50, outputTokens: 5, totalTokens: 55 },
    };
    expect(protocolUsage(stages, modelOf)).toEqual([
      { provider: "openai", model: "small", inputTokens: 100, outputTokens: 10, totalTokens: 110 },
      { provider: "openai", model: "large", inputTokens: 250, outputTokens: 25, totalTokens: 275 },
    ]);
  });

  test("a stage that called no model, or whose provider reported nothing, adds no entry", () => {
    expect(protocolUsage({ intent: undefined, execution: { inputTokens: undefined, outputTokens: undefined } }, modelOf)).toEqual([]);
  });

  test("a count the provider left out stays absent rather than becoming zero", () => {
    const [entry] = protocolUsage({ execution: { inputTokens: 7, outputTokens: undefined } }, modelOf);
    expect(entry).toEqual({ provider: "openai", model: "large", inputTokens: 7 });
  });
});

describe("events that end a run", () => {
  const stages = { execution: { inputTokens: 3, outputTokens: 4, totalTokens: 7 } };
  const usage = protocolUsage(stages, modelOf);

  test("RUN_FINISHED carries both the stage totals (result) and the protocol usage", () => {
    const event = agUi.runFinished("t", "r", { step_count: 1, usage: runUsage(stages) }, usage);
    expect(event.usage).toEqual([{ provider: "openai", model: "large", inputTokens: 3, outputTokens: 4, totalTokens: 7 }]);
    expect(event.result.usage).toMatchObject({ input_tokens: 3, output_tokens: 4, total_tokens: 7 });
  });

  test("RUN_ERROR carries what was spent before the failure; no usage, no field", () => {
    expect(agUi.runError("MODEL_UNAVAILABLE", "down", usage).usage).toEqual(usage);
    expect(agUi.runError("MODEL_UNAVAILABLE", "down")).not.toHaveProperty("usage");
    expect(agUi.runFinished("t", "r", { step_count: 0, usage: runUsage({}) }, [])).not.toHaveProperty("usage");
  });
});
