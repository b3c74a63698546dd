// The Responses API wire format (POST /v1/responses): a response object, or with
// `stream: true` typed server-sent events: response.created, response.output_item.added,
// response.output_text.delta / response.function_call_arguments.delta and .done,
// response.output_item.done, response.completed.
import { type PlannedReply, pieces, USAGE } from "./replies.ts";

type Answer = Exclude<PlannedReply, { status: number }>;

const usage = {
  input_tokens: USAGE.input,
  output_tokens: USAGE.output,
  total_tokens: USAGE.input + USAGE.output,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens_details: { reasoning_tokens: 0 },
};

function outputItems(reply: Answer, n: number) {
  if ("text" in reply) {
    return [
      {
        type: "message",
        id: `msg_${n}`,
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: reply.text, annotations: [] }],
      },
    ];
  }
  return reply.toolCalls.map((call, i) => ({
    type: "function_call",
    id: `fc_${n}_${i}`,
    call_id: `call_${n}_${i}`,
    name: call.name,
    arguments: JSON.stringify(call.arguments),
    status: "completed",
  }));
}

function response(n: number, model: string, status: string, output: unknown[]) {
  return {
    id: `resp_${n}`,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    model,
    status,
    output,
    usage: status === "completed" ? usage : null,
    incomplete_details: null,
    error: null,
  };
}

export function responsesResult(reply: Answer, model: string, n: number): unknown {
  return response(n, model, "completed", outputItems(reply, n));
}

export function responsesEvents(reply: Answer, model: string, n: number): string[] {
  let sequence = 0;
  const events: Array<Record<string, unknown>> = [];
  const push = (event: Record<string, unknown>) => events.push({ ...event, sequence_number: sequence++ });
  push({ type: "response.created", response: response(n, model, "in_progress", []) });
  const items = outputItems(reply, n);
  items.forEach((item, output_index) => {
    if (item.type === "message") {
      push({ type: "response.output_item.added", output_index, item: { ...item, status: "in_progress", content: [] } });
      const text = "text" in reply ? reply.text : "";
      for (const delta of pieces(text))
        push({ type: "response.output_text.delta", item_id: item.id, output_index, content_index: 0, delta, logprobs: [] });
      push({ type: "response.output_text.done", item_id: item.id, output_index, content_index: 0, text });
    } else if ("arguments" in item) {
      push({ type: "response.output_item.added", output_index, item: { ...item, arguments: "", status: "in_progress" } });
      for (const delta of pieces(item.arguments))
        push({ type: "response.function_call_arguments.delta", item_id: item.id, output_index, delta });
      push({ type: "response.function_call_arguments.done", item_id: item.id, output_index, arguments: item.arguments });
    }
    push({ type: "response.output_item.done", output_index, item });
  });
  push({ type: "response.completed", response: response(n, model, "completed", items) });
  return events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
}
