// The agent builds its OpenAI models from the provider's classes instead of createOpenAI (a
// smaller bundle: functions/lib/openai-models.ts). Nothing a provider or a proxy sees
// may differ: for both APIs, the same call through both sends the same URL, headers and body,
// and reports itself with the same provider name and model id.
import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModelV4, LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { openAiModels } from "../../../functions/lib/openai-models.ts";

interface Sent {
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A fetch that records the request and refuses it, so each call ends right after sending. */
function recordingFetch(sent: Sent[]): typeof fetch {
  return async (input, init) => {
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    delete headers["user-agent"]; // createOpenAI names its package version there; the request is the same
    sent.push({ url: String(input), headers, body: JSON.parse(String(init?.body)) });
    return new Response(JSON.stringify({ error: { message: "refused on purpose", type: "invalid_request_error" } }), {
      status: 400,
      headers: { "content-type": "application/json" },
    });
  };
}

const call: LanguageModelV4CallOptions = {
  prompt: [
    { role: "system", content: "You help with a calendar." },
    { role: "user", content: [{ type: "text", text: "What is on today?" }] },
  ],
  maxOutputTokens: 200,
  tools: [
    {
      type: "function",
      name: "project_cli",
      description: "the business tool",
      inputSchema: { type: "object", properties: { module: { type: "string" } }, required: ["module"], additionalProperties: false },
      strict: false,
    },
  ],
  responseFormat: { type: "json", name: "intent", schema: { type: "object", properties: {}, additionalProperties: false } },
};

async function sendThrough(model: LanguageModelV4, sent: Sent[], stream: boolean) {
  const error = await (stream ? model.doStream(call) : model.doGenerate(call)).then(
    () => undefined,
    (caught: unknown) => caught as { statusCode?: number },
  );
  return { sent: sent.at(-1), statusCode: error?.statusCode };
}

describe.each(["chat", "responses"] as const)("openAiModels (%s)", (api) => {
  for (const baseUrl of [undefined, "http://127.0.0.1:9999/v1/"]) {
    it(`sends what createOpenAI's model sends, base URL ${baseUrl ?? "default"}`, async () => {
      const ours: Sent[] = [];
      const theirs: Sent[] = [];
      const provider = createOpenAI({ apiKey: "sk-test", fetch: recordingFetch(theirs), ...(baseUrl ? { baseURL: baseUrl } : {}) });
      const reference = (api === "responses" ? provider.responses("gpt-test") : provider.chat("gpt-test")) as LanguageModelV4;
      const model = openAiModels({ api, baseUrl, apiKey: "sk-test", fetch: recordingFetch(ours) })("gpt-test") as LanguageModelV4;

      expect(model.provider).toBe(reference.provider);
      expect(model.modelId).toBe("gpt-test");
      for (const stream of [false, true]) {
        const a = await sendThrough(model, ours, stream);
        const b = await sendThrough(reference, theirs, stream);
        expect(a.sent).toBeDefined();
        expect(a.sent).toEqual(b.sent);
        expect(a.statusCode).toBe(400);
        expect(b.statusCode).toBe(400);
      }
      expect(ours[0]?.headers.authorization).toBe("Bearer sk-test");
      expect(ours[0]?.url.startsWith(baseUrl ? "http://127.0.0.1:9999/v1/" : "https://api.openai.com/v1/")).toBe(true);
      expect(ours[0]?.url).not.toContain("v1//");
    });
  }
});
