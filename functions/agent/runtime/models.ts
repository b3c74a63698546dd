// Which language models a run uses: any OpenAI-compatible endpoint (configurable base URL, key
// and model per stage), or, with no key configured, the offline demo model, labelled as such.
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { openAiModels } from "../../lib/openai-models.ts";
import type { Settings } from "../settings.ts";
import { DEMO_MODEL_ID, demoModel } from "./demo-model.ts";

export interface AgentModels {
  intent: LanguageModelV4;
  execution: LanguageModelV4;
  /** Model names per stage, for events, logs and run records. */
  labels: { intent: string; execution: string };
  /** Who serves them, for the usage on RUN_FINISHED: "openai", the host of a compatible endpoint, or "demo". */
  provider: string;
  /** True when the offline demo model stands in for a real one. */
  demo: boolean;
}

export function resolveModels(agent: Settings["agent"]): AgentModels {
  if (!agent.modelApiKey) {
    const model = demoModel();
    return { intent: model, execution: model, labels: { intent: DEMO_MODEL_ID, execution: DEMO_MODEL_ID }, provider: "demo", demo: true };
  }
  // Chat Completions unless the operator chose the Responses API (docs/configuration.md).
  const model = openAiModels({ api: agent.modelApi, baseUrl: agent.modelBaseUrl, apiKey: agent.modelApiKey });
  return {
    intent: model(agent.intentModel),
    execution: model(agent.executionModel),
    labels: { intent: agent.intentModel, execution: agent.executionModel },
    provider: agent.modelBaseUrl ? new URL(agent.modelBaseUrl).host : "openai",
    demo: false,
  };
}
