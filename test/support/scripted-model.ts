// The language model is the one test double: scripted per case with the AI SDK's mock model.
// Runtime-neutral (Node benchmarks and workerd tests both use it).
import type { LanguageModelV4StreamPart, LanguageModelV4Usage, SharedV4Warning } from "@ai-sdk/provider";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV4 } from "ai/test";

export const scriptedUsage: LanguageModelV4Usage = {
  inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 10, text: 10, reasoning: 0 },
};

/** One model step: tool call(s), an answer (streamed word by word), or a failure. */
export type ScriptedStep =
  | { tool: string; input: unknown }
  | { tools: Array<{ tool: string; input: unknown }> }
  | { text: string; warnings?: SharedV4Warning[] }
  /** An answer whose stream breaks after its first words, as a dropped connection does. */
  | { brokenText: string }
  /** An answer that starts, then sends nothing more until its call is aborted (a provider gone quiet). */
  | { silentAfter: string }
  | { fail: Error };

export function scriptedStream(step: ScriptedStep, index: number, abortSignal?: AbortSignal) {
  if ("fail" in step)
    return { stream: simulateReadableStream<LanguageModelV4StreamPart>({ chunks: [{ type: "error", error: step.fail }] }) };
  if ("silentAfter" in step) {
    const id = `text-${index}`;
    const stream = new ReadableStream<LanguageModelV4StreamPart>({
      start(controller) {
        controller.enqueue({ type: "stream-start", warnings: [] });
        controller.enqueue({ type: "text-start", id });
        controller.enqueue({ type: "text-delta", id, delta: step.silentAfter });
        // As a fetch does: the call's abort ends the stream with its reason.
        abortSignal?.addEventListener("abort", () => controller.error(abortSignal.reason), { once: true });
      },
    });
    return { stream };
  }
  if ("brokenText" in step) {
    const id = `text-${index}`;
    const parts: LanguageModelV4StreamPart[] = [
      { type: "stream-start", warnings: [] },
      { type: "text-start", id },
      { type: "text-delta", id, delta: step.brokenText },
    ];
    const stream = new ReadableStream<LanguageModelV4StreamPart>({
      pull(controller) {
        const part = parts.shift();
        if (part) controller.enqueue(part);
        else controller.error(new TypeError("terminated"));
      },
    });
    return { stream };
  }
  const chunks: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: ("warnings" in step && step.warnings) || [] }];
  if ("text" in step) {
    const id = `text-${index}`;
    chunks.push({ type: "text-start", id });
    for (const word of step.text.split(/(?<= )/)) chunks.push({ type: "text-delta", id, delta: word });
    chunks.push({ type: "text-end", id }, { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: scriptedUsage });
  } else {
    const calls = "tools" in step ? step.tools : [step];
    for (const [n, call] of calls.entries()) {
      chunks.push({ type: "tool-call", toolCallId: `call-${index}-${n}`, toolName: call.tool, input: JSON.stringify(call.input) });
    }
    chunks.push({ type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage: scriptedUsage });
  }
  return { stream: simulateReadableStream({ chunks }) };
}

/** The intent model answering with this router output (streamed as JSON text), and the execution model playing `steps`. */
export function scriptedPair(router: unknown, steps: ScriptedStep[]) {
  const intent = new MockLanguageModelV4({
    doStream: async () => {
      if (router instanceof Error) throw router;
      return scriptedStream({ text: JSON.stringify(router) }, 0);
    },
  });
  let step = 0;
  const execution = new MockLanguageModelV4({
    doStream: async ({ abortSignal }) => {
      const index = step++;
      const planned = steps[index];
      if (!planned) throw new Error(`the script has no step ${index}`);
      return scriptedStream(planned, index, abortSignal);
    },
  });
  return { intent, execution };
}
