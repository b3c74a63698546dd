// The run's tool loop (tool-loop.ts) against the AI SDK's own, streamText, as the reference: the
// same scripted model and the same tools go through both, and each case checks that the model is
// sent the same prompts, tools and settings at every step, that the run sees the same parts in
// the same order, that the tools are called with the same arguments, and that the usage and the
// messages for a further call come out the same. A failure is compared by what the run makes of
// it (describeModelFailure): streamText wraps a second failed attempt in a RetryError.
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { APICallError, jsonSchema, type ModelMessage, simulateReadableStream, stepCountIs, streamText, type ToolSet, tool } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, describe, expect, test, vi } from "vitest";
import { ModelSilent } from "../../../functions/agent/runtime/model-deadline.ts";
import { describeModelFailure } from "../../../functions/agent/runtime/model-errors.ts";
import { type LoopPart, type ToolLoopOptions, toolLoop } from "../../../functions/agent/runtime/tool-loop.ts";

type Call = LanguageModelV4StreamPart[] | Error;

const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input - 1, cacheRead: 1, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});
const finish = (unified: "stop" | "tool-calls" | "length", tokens = usage(20, 5)): LanguageModelV4StreamPart => ({
  type: "finish",
  finishReason: { unified, raw: unified },
  usage: tokens,
});
const start: LanguageModelV4StreamPart = { type: "stream-start", warnings: [] };
const answer = (text: string, id = "t"): LanguageModelV4StreamPart[] => [
  start,
  { type: "text-start", id },
  ...text.split(/(?<= )/).map((delta): LanguageModelV4StreamPart => ({ type: "text-delta", id, delta })),
  { type: "text-end", id },
  finish("stop", usage(40, 8)),
];
const toolCall = (toolCallId: string, toolName: string, input: string): LanguageModelV4StreamPart => ({
  type: "tool-call",
  toolCallId,
  toolName,
  input,
});
const retryable = (status: number) =>
  new APICallError({
    message: `HTTP ${status}`,
    url: "https://model.test/v1/chat/completions",
    requestBodyValues: {},
    statusCode: status,
    responseHeaders: { "retry-after-ms": "5" },
    isRetryable: status === 429 || status >= 500,
  });

/** A model that plays `calls` in order and records what each call was sent. */
function scripted(calls: Call[]) {
  let next = 0;
  return new MockLanguageModelV4({
    doStream: async () => {
      const call = calls[next++];
      if (!call) throw new Error("the script has no more calls");
      if (call instanceof Error) throw call;
      return { stream: simulateReadableStream({ chunks: call, chunkDelayInMs: null }) };
    },
  });
}

/** The tools, recording every call they get (arguments and the conversation they were given). */
function recordingTools() {
  const calls: Array<{ tool: string; input: unknown; messages: ModelMessage[] }> = [];
  const schema = jsonSchema<unknown>({ type: "object", properties: { q: { type: "string" } }, additionalProperties: false });
  const record = (name: string, input: unknown, messages: ModelMessage[]) => calls.push({ tool: name, input, messages });
  const tools: ToolSet = {
    lookup: tool({
      description: "find things",
      inputSchema: schema,
      execute: async (input, { messages }) => {
        record("lookup", input, messages);
        return { found: [{ id: 1, at: new Date("2026-11-25T09:00:00Z"), note: undefined }] };
      },
    }),
    slow: tool({
      description: "takes a while",
      inputSchema: schema,
      execute: async (input, { messages }) => {
        record("slow", input, messages);
        await new Promise((resolve) => setTimeout(resolve, 20));
        return { slow: true };
      },
    }),
    words: tool({
      description: "answers in words",
      inputSchema: schema,
      execute: async (input, { messages }) => {
        record("words", input, messages);
        return "plain words";
      },
    }),
    fails: tool({
      description: "always fails",
      inputSchema: schema,
      execute: async (input, { messages }): Promise<unknown> => {
        record("fails", input, messages);
        throw new Error("the backend said no");
      },
    }),
  };
  return { tools, calls };
}

/** What the run reads of a part, in a form both loops share. */
function seen(part: { type: string } & Record<string, unknown>) {
  switch (part.type) {
    case "start-step":
    case "finish-step":
      return { type: part.type };
    case "text-delta":
      return { type: part.type, text: part.text };
    case "tool-call":
      return { type: part.type, toolCallId: part.toolCallId, toolName: part.toolName, input: part.input };
    case "tool-result":
      return { type: part.type, toolCallId: part.toolCallId, toolName: part.toolName, input: part.input, output: part.output };
    case "tool-error":
      return { type: part.type, toolCallId: part.toolCallId, toolName: part.toolName, error: String(part.error) };
    case "error":
      return { type: part.type, failure: describeModelFailure(part.error) };
    default:
      return undefined;
  }
}

/** What a model call was sent, as the provider receives it. */
const sent = (call: LanguageModelV4CallOptions) => ({
  prompt: call.prompt,
  tools: call.tools,
  toolChoice: call.toolChoice,
  temperature: call.temperature,
});

interface Case {
  calls: Call[];
  maxSteps?: number;
  withTools?: boolean;
  stopAfterStep?: (step: number) => boolean;
  temperature?: number;
}

const instructions = "You help with a calendar.";
const messages: ModelMessage[] = [{ role: "user", content: [{ type: "text", text: "what is on today?" }] }];

async function throughStreamText(c: Case) {
  const model = scripted(c.calls);
  const { tools, calls } = recordingTools();
  let steps = 0;
  const parts: unknown[] = [];
  const responseMessages: ModelMessage[] = [];
  const result = streamText({
    model,
    instructions,
    messages,
    ...(c.withTools === false ? {} : { tools }),
    stopWhen: [stepCountIs(c.maxSteps ?? 7), () => c.stopAfterStep?.(steps) ?? false],
    ...(c.temperature !== undefined ? { temperature: c.temperature } : {}),
    maxRetries: 1,
    telemetry: { isEnabled: false },
    onError: () => {},
    onStepEnd: (step) => {
      steps++;
      responseMessages.push(...step.response.messages);
    },
  });
  for await (const part of result.fullStream) {
    const read = seen(part as never);
    if (read) parts.push(read);
  }
  const failed = parts.some((part) => (part as { type: string }).type === "error");
  const totalUsage = failed ? undefined : await result.totalUsage;
  return {
    sent: model.doStreamCalls.map(sent),
    parts,
    toolCalls: calls,
    usage: totalUsage && { ...totalUsage, raw: undefined },
    responseMessages: failed ? undefined : responseMessages,
  };
}

async function throughToolLoop(c: Case) {
  const model = scripted(c.calls);
  const { tools, calls } = recordingTools();
  let steps = 0;
  const parts: unknown[] = [];
  let end: Extract<LoopPart, { type: "finish" }> | undefined;
  for await (const part of toolLoop({
    model,
    instructions,
    messages,
    ...(c.withTools === false ? {} : { tools }),
    maxSteps: c.maxSteps ?? 7,
    stopAfterStep: () => c.stopAfterStep?.(steps) ?? false,
    ...(c.temperature !== undefined ? { temperature: c.temperature } : {}),
    abortSignal: new AbortController().signal,
  })) {
    if (part.type === "finish-step") steps++;
    if (part.type === "finish") end = part;
    const read = seen(part as never);
    if (read) parts.push(read);
  }
  return {
    sent: model.doStreamCalls.map(sent),
    parts,
    toolCalls: calls,
    usage: end && { ...end.usage, raw: undefined },
    responseMessages: end?.responseMessages,
  };
}

const cases: Record<string, Case> = {
  "an answer without tools": { calls: [answer("Nothing is on today.")] },
  "a tool call, then the answer (a Date and an undefined field in the result become JSON)": {
    calls: [[start, toolCall("c1", "lookup", '{"q":"today"}'), finish("tool-calls")], answer("You have one event.")],
  },
  "two calls in one step, the slower first: results as they finish, sent back in call order": {
    calls: [[start, toolCall("c1", "slow", "{}"), toolCall("c2", "lookup", '{"q":"x"}'), finish("tool-calls")], answer("Done.")],
  },
  "a tool that answers in text": { calls: [[start, toolCall("c1", "words", "{}"), finish("tool-calls")], answer("Said.")] },
  "a call to a tool that does not exist goes back to the model as an error": {
    calls: [[start, toolCall("c1", "calendar_read", "{}"), finish("tool-calls")], answer("Sorry.")],
  },
  "a tool named like a property every object has is unknown too": {
    calls: [[start, toolCall("c1", "constructor", "{}"), toolCall("c2", "__proto__", "{}"), finish("tool-calls")], answer("Sorry.")],
  },
  "arguments that do not parse go back to the model as an error": {
    calls: [[start, toolCall("c1", "lookup", '{"q": '), finish("tool-calls")], answer("Sorry.")],
  },
  "a tool that throws: its message goes back to the model": {
    calls: [[start, toolCall("c1", "fails", "{}"), finish("tool-calls")], answer("It failed.")],
  },
  "text before a call, in the same step": {
    calls: [
      [
        start,
        { type: "text-start", id: "a" },
        { type: "text-delta", id: "a", delta: "Let me look. " },
        { type: "text-end", id: "a" },
        toolCall("c1", "lookup", "{}"),
        finish("tool-calls"),
      ],
      answer("Found it."),
    ],
  },
  "reasoning and text with provider metadata are sent back with it; an empty text part is not": {
    calls: [
      [
        start,
        { type: "reasoning-start", id: "r", providerMetadata: { openai: { itemId: "rs_1" } } },
        { type: "reasoning-delta", id: "r", delta: "think" },
        { type: "reasoning-end", id: "r", providerMetadata: { openai: { itemId: "rs_1", reasoningEncryptedContent: "x" } } },
        { type: "text-start", id: "e" },
        { type: "text-end", id: "e" },
        { type: "text-start", id: "m", providerMetadata: { openai: { itemId: "msg_1" } } },
        { type: "text-end", id: "m" },
        toolCall("c1", "lookup", "{}"),
        finish("tool-calls"),
      ],
      answer("Here."),
    ],
  },
  "the step budget is spent on tool calls": {
    maxSteps: 2,
    calls: [
      [start, toolCall("c1", "lookup", "{}"), finish("tool-calls")],
      [start, toolCall("c2", "lookup", "{}"), finish("tool-calls")],
      answer("never asked"),
    ],
  },
  "the caller stops the loop after a step": {
    stopAfterStep: (steps) => steps >= 1,
    calls: [[start, toolCall("c1", "lookup", "{}"), finish("tool-calls")], answer("never asked")],
  },
  "a step cut at its length limit: its call does not run and the loop ends": {
    calls: [[start, toolCall("c1", "lookup", "{}"), finish("length")], answer("never asked")],
  },
  "without tools, and with a temperature": { withTools: false, temperature: 0.2, calls: [answer("Only words.")] },
  "an error in the model's stream ends the loop": {
    calls: [
      [start, { type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "Hal" }, { type: "error", error: retryable(500) }],
    ],
  },
  "a stream that ends with nothing in it ends the loop with an error": { calls: [[start]] },
  "a retryable failure is tried once more": { calls: [retryable(429), answer("Second time lucky.")] },
  "a retryable failure twice ends the loop": { calls: [retryable(503), retryable(503), answer("never asked")] },
  "a rejected request is not tried again": { calls: [retryable(400), answer("never asked")] },
  "a failure on a later step ends the loop after the tool's result": {
    calls: [[start, toolCall("c1", "lookup", "{}"), finish("tool-calls")], retryable(401)],
  },
};

describe("the run's tool loop does what streamText does", () => {
  test.each(Object.entries(cases))("%s", async (_name, c) => {
    const reference = await throughStreamText(c);
    const ours = await throughToolLoop(c);
    expect(ours.sent).toEqual(reference.sent);
    expect(ours.parts).toEqual(reference.parts);
    expect(ours.toolCalls).toEqual(reference.toolCalls);
    // After an error the run stops reading: what the loops would have added up does not matter.
    if (reference.usage === undefined) return;
    expect(ours.usage).toEqual(reference.usage);
    expect(ours.responseMessages).toEqual(reference.responseMessages);
  });

  test("the cases exercise what they are named for", async () => {
    // Guards the comparison against cases that prove nothing because both loops did nothing.
    const run = (name: string) => throughToolLoop(cases[name]!);
    const parallel = await run("two calls in one step, the slower first: results as they finish, sent back in call order");
    expect(
      parallel.parts.filter((p) => (p as { type: string }).type === "tool-result").map((p) => (p as { toolCallId: string }).toolCallId),
    ).toEqual(["c2", "c1"]);
    expect(parallel.responseMessages?.[1]).toMatchObject({ role: "tool", content: [{ toolCallId: "c1" }, { toolCallId: "c2" }] });
    expect((await run("the step budget is spent on tool calls")).sent).toHaveLength(2);
    expect((await run("a retryable failure is tried once more")).sent).toHaveLength(2);
    expect((await run("a rejected request is not tried again")).parts).toEqual([
      { type: "error", failure: expect.objectContaining({ code: "MODEL_REQUEST_REJECTED", status: 400 }) },
    ]);
    const invalid = await run("arguments that do not parse go back to the model as an error");
    expect(invalid.toolCalls).toEqual([]);
    expect(invalid.sent[1]?.prompt.at(-1)).toMatchObject({ role: "tool", content: [{ output: { type: "error-text" } }] });
  });

  test("what the provider warns about a request is handed on once per step, before the step's parts", async () => {
    const warned: LanguageModelV4StreamPart = { type: "stream-start", warnings: [{ type: "unsupported", feature: "temperature" }] };
    const parts: LoopPart[] = [];
    for await (const part of toolLoop({
      model: scripted([[warned, ...answer("Fine.").slice(1)]]),
      instructions,
      messages,
      maxSteps: 1,
      temperature: 0.3,
      abortSignal: new AbortController().signal,
    }))
      parts.push(part);
    expect(parts[0]).toEqual({ type: "warnings", warnings: [{ type: "unsupported", feature: "temperature" }] });
    expect(parts.filter((part) => part.type === "warnings")).toHaveLength(1);
    expect(parts[1]).toEqual({ type: "start-step" });
  });

  test("a cancel while a tool runs: the tool is told, and no further model call is made", async () => {
    const controller = new AbortController();
    let toolSignal: AbortSignal | undefined;
    const tools: ToolSet = {
      lookup: tool({
        inputSchema: jsonSchema<unknown>({ type: "object" }),
        execute: (_input, { abortSignal }): Promise<unknown> => {
          toolSignal = abortSignal;
          controller.abort(new Error("cancelled by the user"));
          return Promise.reject(abortSignal?.reason);
        },
      }),
    };
    const model = scripted([[start, toolCall("c1", "lookup", "{}"), finish("tool-calls")], answer("never asked")]);
    const parts: LoopPart[] = [];
    for await (const part of toolLoop({
      model,
      instructions,
      messages,
      tools,
      maxSteps: 7,
      abortSignal: controller.signal,
    }))
      parts.push(part);
    expect(toolSignal?.aborted).toBe(true);
    expect(model.doStreamCalls).toHaveLength(1);
    expect(parts.map((part) => part.type)).toEqual(["start-step", "tool-call", "tool-error", "finish-step", "error"]);
  });
});

describe("the model's silence is bounded (model-deadline.ts)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A stream that ends with an error when the call is aborted, as a provider's fetch does. */
  function abortable(abortSignal: AbortSignal | undefined, source: UnderlyingSource<LanguageModelV4StreamPart>) {
    return new ReadableStream<LanguageModelV4StreamPart>({
      ...source,
      start(controller) {
        abortSignal?.addEventListener("abort", () => controller.error(abortSignal.reason), { once: true });
        return source.start?.(controller);
      },
    });
  }

  /** A model that sends `parts` and then nothing. */
  const goesSilent = (parts: LanguageModelV4StreamPart[]) =>
    new MockLanguageModelV4({
      doStream: async ({ abortSignal }) => ({
        stream: abortable(abortSignal, {
          start(controller) {
            for (const part of parts) controller.enqueue(part);
          },
        }),
      }),
    });

  /** A stream of `parts`, one every `everyMs`. */
  const slowly = (abortSignal: AbortSignal | undefined, parts: LanguageModelV4StreamPart[], everyMs: number) =>
    abortable(abortSignal, {
      async pull(controller) {
        await new Promise((resolve) => setTimeout(resolve, everyMs));
        const part = parts.shift();
        if (part) controller.enqueue(part);
        else controller.close();
      },
    });

  /** Runs the loop in the background, its parts collected as they come. */
  function collect(options: Pick<ToolLoopOptions, "model" | "tools" | "idleTimeoutMs">) {
    const parts: LoopPart[] = [];
    const loop: ToolLoopOptions = { instructions, messages, maxSteps: 7, abortSignal: new AbortController().signal, ...options };
    const done = (async () => {
      for await (const part of toolLoop(loop)) parts.push(part);
    })();
    return { parts, done };
  }

  test("a model that stops sending fails its step with ModelSilent once the window has passed, not before", async () => {
    vi.useFakeTimers();
    const model = goesSilent([start, { type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "Hal" }]);
    const { parts, done } = collect({ model, idleTimeoutMs: 1_000 });
    await vi.advanceTimersByTimeAsync(999);
    expect(parts.map((part) => part.type)).toEqual(["start-step", "text-delta"]);
    await vi.advanceTimersByTimeAsync(1);
    await done;
    expect(parts.at(-1)).toEqual({ type: "error", error: expect.any(ModelSilent) });
    expect(describeModelFailure((parts.at(-1) as { error: unknown }).error)).toMatchObject({ code: "MODEL_UNAVAILABLE" });
  });

  test("an answer that keeps coming, however slowly, is never cut; nor is a tool slower than the window", async () => {
    vi.useFakeTimers();
    const steps: LanguageModelV4StreamPart[][] = [
      [start, toolCall("c1", "lookup", "{}"), finish("tool-calls")],
      answer("one two three four five six"),
    ];
    const model = new MockLanguageModelV4({
      // The tool call comes at once; the answer a part every 900 ms, each within the 1 s window.
      doStream: async ({ abortSignal }) => {
        const parts = steps.shift() ?? [];
        return { stream: slowly(abortSignal, parts, steps.length === 0 ? 900 : 0) };
      },
    });
    const tools: ToolSet = {
      lookup: tool({
        inputSchema: jsonSchema<unknown>({ type: "object" }),
        execute: () => new Promise((resolve) => setTimeout(() => resolve({ found: [] }), 3_000)),
      }),
    };
    const { parts, done } = collect({ model, tools, idleTimeoutMs: 1_000 });
    await vi.advanceTimersByTimeAsync(20_000);
    await done;
    expect(parts.filter((part) => part.type === "error")).toEqual([]);
    expect(
      parts
        .filter((part) => part.type === "text-delta")
        .map((part) => (part as { text: string }).text)
        .join(""),
    ).toBe("one two three four five six");
    expect(parts.at(-1)?.type).toBe("finish");
  });
});
