// The scripted OpenAI-compatible server itself: its strict-schema checker follows OpenAI's
// rules, and the real @ai-sdk/openai provider understands what it streams, on both APIs.
import { createOpenAI } from "@ai-sdk/openai";
import { APICallError, generateText, type JSONSchema7, jsonSchema, Output, stepCountIs, streamText, tool } from "ai";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { type ScriptedOpenAI, startScriptedOpenAI } from "../../support/openai-server/server.ts";
import { strictSchemaViolation } from "../../support/openai-server/strict-schema-rules.ts";

describe("strict-schema checker (OpenAI's rules)", () => {
  const strict = {
    type: "object",
    properties: {
      name: { type: "string", description: "a name", pattern: "^[a-z]+$" },
      note: { anyOf: [{ type: "string" }, { type: "null" }] },
      tags: {
        type: "array",
        items: { type: "object", properties: { v: { type: "integer", minimum: 0 } }, required: ["v"], additionalProperties: false },
        maxItems: 3,
      },
    },
    required: ["name", "note", "tags"],
    additionalProperties: false,
  };

  test("accepts a schema inside the strict subset", () => {
    expect(strictSchemaViolation(strict)).toBeUndefined();
  });

  test.each([
    ["an optional key left out of required", { ...strict, required: ["name", "tags"] }, "Missing 'note'"],
    [
      "an object without additionalProperties: false",
      { ...strict, additionalProperties: undefined },
      "'additionalProperties' is required to be supplied and to be false",
    ],
    [
      "a nested open object",
      { ...strict, properties: { ...strict.properties, tags: { type: "object", additionalProperties: {} } } },
      "context=('properties', 'tags')",
    ],
    [
      "maxLength",
      { ...strict, properties: { ...strict.properties, name: { type: "string", maxLength: 5 } } },
      "'maxLength' is not permitted",
    ],
    [
      "propertyNames",
      {
        ...strict,
        properties: {
          ...strict.properties,
          tags: { type: "object", properties: {}, required: [], additionalProperties: false, propertyNames: { type: "string" } },
        },
      },
      "'propertyNames' is not permitted",
    ],
    ["allOf", { ...strict, allOf: [] }, "'allOf' is not permitted"],
    ["a root that is not an object", { type: "array", items: { type: "string" } }, "must be a JSON Schema of 'type: \"object\"'"],
  ])("refuses %s", (_name, schema, message) => {
    expect(strictSchemaViolation(schema)).toContain(message);
  });
});

describe.each(["chat", "responses"] as const)("the %s API through @ai-sdk/openai", (api) => {
  let server: ScriptedOpenAI;
  beforeAll(async () => {
    server = await startScriptedOpenAI();
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());
  const model = (key = server.apiKey) => {
    const provider = createOpenAI({ apiKey: key, baseURL: server.baseUrl });
    return api === "chat" ? provider.chat("gpt-test") : provider.responses("gpt-test");
  };
  const objectSchema: JSONSchema7 = {
    type: "object",
    properties: { answer: { type: "string" } },
    required: ["answer"],
    additionalProperties: false,
  };

  test("structured output: a strict schema is answered", async () => {
    server.planStructured({ text: JSON.stringify({ answer: "42" }) });
    const result = await generateText({
      model: model(),
      prompt: "q",
      output: Output.object({ schema: jsonSchema<{ answer: string }>(objectSchema) }),
    });
    expect(result.output).toEqual({ answer: "42" });
  });

  test("structured output: a schema sent strict that breaks the rules gets OpenAI's 400", async () => {
    const loose: JSONSchema7 = {
      type: "object",
      properties: { answer: { type: "string" }, extra: { type: "string" } },
      required: ["answer"],
      additionalProperties: false,
    };
    const error = await generateText({
      model: model(),
      prompt: "q",
      output: Output.object({ schema: jsonSchema(loose) }),
      maxRetries: 0,
    }).catch((e: unknown) => e);
    expect(APICallError.isInstance(error) && error.statusCode).toBe(400);
    const sent = server.requests[0]!;
    expect(sent.status).toBe(400);
    expect(JSON.parse((error as APICallError).responseBody ?? "")).toEqual({
      error: {
        message: expect.stringContaining("Missing 'extra'"),
        type: "invalid_request_error",
        param: api === "chat" ? "response_format" : "text.format.schema",
        code: "invalid_json_schema",
      },
    });
  });

  test("a wrong key gets 401", async () => {
    server.planTurns({ text: "never" });
    const error = await generateText({ model: model("sk-wrong"), prompt: "q", maxRetries: 0 }).catch((e: unknown) => e);
    expect(APICallError.isInstance(error) && error.statusCode).toBe(401);
  });

  test("streams a tool call split across chunks, then text, with usage", async () => {
    server.planTurns(
      { toolCalls: [{ name: "lookup", arguments: { city: "Lisbon, Portugal" } }] },
      { text: "It is sunny in Lisbon today." },
    );
    const seen: unknown[] = [];
    const result = streamText({
      model: model(),
      prompt: "weather?",
      tools: {
        lookup: tool({
          strict: true,
          inputSchema: jsonSchema<{ city: string }>({
            type: "object",
            properties: { city: { type: "string" } },
            required: ["city"],
            additionalProperties: false,
          }),
          execute: async (input) => {
            seen.push(input);
            return { sky: "sunny" };
          },
        }),
      },
      stopWhen: stepCountIs(3),
    });
    expect(await result.text).toBe("It is sunny in Lisbon today.");
    expect(seen).toEqual([{ city: "Lisbon, Portugal" }]);
    expect((await result.totalUsage).inputTokens).toBe(22);
    expect(server.requests.map((r) => [r.path, r.body.stream, r.authorization])).toEqual([
      [`/v1/${api === "chat" ? "chat/completions" : "responses"}`, true, `Bearer ${server.apiKey}`],
      [`/v1/${api === "chat" ? "chat/completions" : "responses"}`, true, `Bearer ${server.apiKey}`],
    ]);
  });
});
