// OpenAI models built from the provider's model classes (@ai-sdk/openai/internal) rather than
// through createOpenAI. createOpenAI's provider object reaches every model kind the package has
// (embeddings, images, speech, transcription, files, batches), so the bundle kept all of them,
// about 22 KiB gzip the agent never runs (docs/performance.md). The configuration is the one
// createOpenAI gives these two classes; test/unit/providers/openai-models.test.ts holds the
// requests both send equal, so an upgrade that changes it fails there.
import { OpenAIChatLanguageModel, OpenAIResponsesLanguageModel } from "@ai-sdk/openai/internal";
import type { LanguageModelV4 } from "@ai-sdk/provider";

export type ModelApi = "chat" | "responses";

export interface OpenAiEndpoint {
  api: ModelApi;
  /** Defaults to OpenAI's own endpoint. */
  baseUrl?: string | undefined;
  apiKey: string;
  /** For tests; the global fetch otherwise. */
  fetch?: typeof fetch;
}

export const OPENAI_BASE_URL = "https://api.openai.com/v1";

/** A model factory for one endpoint: Chat Completions or the Responses API. */
export function openAiModels({ api, baseUrl, apiKey, fetch }: OpenAiEndpoint): (modelId: string) => LanguageModelV4 {
  const baseURL = (baseUrl ?? OPENAI_BASE_URL).replace(/\/+$/, "");
  const config = {
    url: ({ path }: { path: string }) => `${baseURL}${path}`,
    headers: () => ({ Authorization: `Bearer ${apiKey}` }),
    ...(fetch ? { fetch } : {}),
  };
  return (modelId) =>
    api === "responses"
      ? new OpenAIResponsesLanguageModel(modelId, { ...config, provider: "openai.responses", baseURL, fileIdPrefixes: ["file-"] })
      : new OpenAIChatLanguageModel(modelId, { ...config, provider: "openai.chat" });
}
