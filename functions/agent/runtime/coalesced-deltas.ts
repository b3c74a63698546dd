// The execution model's streamed deltas, merged before the AI SDK sees them. A real model sends
// a chunk per token, and each chunk costs the SDK's call about 0.02 ms of CPU here (0.12 ms when
// the run used streamText, D46), then the run's own work: an event, its SSE frame, its share of
// the hub's appends (the stage bench's run core for a demo run: 4.6-4.7 ms with this, 5.1-5.2
// without). A delta that follows another within the window joins it: one part instead of many,
// which also means fewer TEXT_MESSAGE_CONTENT events for the hub and the client. The first
// delta after a pause goes at once (the first token is never held back), anything else (a tool
// call, the end of the text, the finish) first sends what is pending, so order is kept, and the
// end of the stream sends the rest. The client already receives events in batches at most every
// 50 ms (the event pipe), so a window shorter than that changes what it sees only in grain.
import type { LanguageModelV4, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { wrapLanguageModel } from "ai";

/** At most this long between two merged parts while deltas flow. */
export const COALESCE_MS = 40;

type Part = LanguageModelV4StreamPart;
type Delta = Extract<Part, { type: "text-delta" | "reasoning-delta" | "tool-input-delta" }>;

const isDelta = (part: Part): part is Delta =>
  part.type === "text-delta" || part.type === "reasoning-delta" || part.type === "tool-input-delta";

// Provider metadata belongs to its own part: such parts are passed on as they are.
const joins = (pending: Delta, next: Delta) =>
  pending.type === next.type && pending.id === next.id && !pending.providerMetadata && !next.providerMetadata;

/** Merges deltas of one kind and id that arrive within `windowMs` of the last part sent. */
export function coalesceDeltas(windowMs = COALESCE_MS): TransformStream<Part, Part> {
  let pending: Delta | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let sentAt = Number.NEGATIVE_INFINITY;
  let output!: TransformStreamDefaultController<Part>;
  const send = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (!pending) return;
    const part = pending;
    pending = undefined;
    sentAt = Date.now();
    try {
      output.enqueue(part);
    } catch {
      // the stream was cancelled or errored meanwhile: nothing is reading any more
    }
  };
  return new TransformStream<Part, Part>({
    start(controller) {
      output = controller;
    },
    transform(part, controller) {
      if (!isDelta(part)) {
        send();
        controller.enqueue(part);
        return;
      }
      if (pending && joins(pending, part)) {
        pending = { ...pending, delta: pending.delta + part.delta };
        return;
      }
      send();
      const wait = sentAt + windowMs - Date.now();
      if (wait <= 0) {
        sentAt = Date.now();
        controller.enqueue(part);
        return;
      }
      pending = { ...part };
      timer = setTimeout(send, wait);
    },
    flush: send,
  });
}

/** The same model, its streams' deltas coalesced (an AI SDK stream middleware). */
export function withCoalescedDeltas(model: LanguageModelV4, windowMs = COALESCE_MS): LanguageModelV4 {
  return wrapLanguageModel({
    model,
    middleware: {
      wrapStream: async ({ doStream }) => {
        const result = await doStream();
        return { ...result, stream: result.stream.pipeThrough(coalesceDeltas(windowMs)) };
      },
    },
  });
}
