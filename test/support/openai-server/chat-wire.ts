// The Chat Completions wire format (POST /v1/chat/completions): a JSON body, or with
// `stream: true` server-sent `data:` chunks, tool-call deltas split across chunks, a usage
// chunk when asked for, and `data: [DONE]`.
import { type PlannedReply, pieces, USAGE } from "./replies.ts";

type Answer = Exclude<PlannedReply, { status: number }>;

export function chatCompletion(reply: Answer, model: string, n: number): unknown {
  const message =
    "text" in reply
      ? { role: "assistant", content: reply.text }
      : {
          role: "assistant",
          content: null,
          tool_calls: reply.toolCalls.map((call, i) => ({
            id: `call_${n}_${i}`,
            type: "function",
            function: { name: call.name, arguments: JSON.stringify(call.arguments) },
          })),
        };
  return {
    id: `chatcmpl-${n}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: "text" in reply ? "stop" : "tool_calls" }],
    usage: { prompt_tokens: USAGE.input, completion_tokens: USAGE.output, total_tokens: USAGE.input + USAGE.output },
  };
}

export function chatCompletionChunks(reply: Answer, model: string, n: number, includeUsage: boolean): string[] {
  const base = { id: `chatcmpl-${n}`, object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model };
  const chunk = (delta: unknown, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  const chunks: unknown[] = [chunk({ role: "assistant", content: "" })];
  if ("text" in reply) {
    for (const piece of pieces(reply.text)) chunks.push(chunk({ content: piece }));
    chunks.push(chunk({}, "stop"));
  } else {
    reply.toolCalls.forEach((call, index) => {
      chunks.push(
        chunk({ tool_calls: [{ index, id: `call_${n}_${index}`, type: "function", function: { name: call.name, arguments: "" } }] }),
      );
      for (const piece of pieces(JSON.stringify(call.arguments)))
        chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    });
    chunks.push(chunk({}, "tool_calls"));
  }
  if (includeUsage)
    chunks.push({
      ...base,
      choices: [],
      usage: { prompt_tokens: USAGE.input, completion_tokens: USAGE.output, total_tokens: USAGE.input + USAGE.output },
    });
  return [...chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`), "data: [DONE]\n\n"];
}
