// Deltas merged before the AI SDK sees them: the first after a pause at once, the ones behind
// it joined until the window has passed, order kept across every other part, nothing lost.
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { afterEach, describe, expect, test, vi } from "vitest";
import { coalesceDeltas, withCoalescedDeltas } from "../../../functions/agent/runtime/coalesced-deltas.ts";

type Part = LanguageModelV4StreamPart;
const text = (delta: string, id = "t"): Part => ({ type: "text-delta", id, delta });
const finish: Part = { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: {} as never };

/** Writes parts with pauses between them (fake time), and collects what comes out. */
async function through(steps: Array<Part | number>, windowMs = 40): Promise<Part[]> {
  const transform = coalesceDeltas(windowMs);
  const out: Part[] = [];
  const reading = (async () => {
    for await (const part of transform.readable) out.push(part);
  })();
  const writer = transform.writable.getWriter();
  for (const step of steps) {
    if (typeof step === "number") await vi.advanceTimersByTimeAsync(step);
    else await writer.write(step);
  }
  await writer.close();
  await reading;
  return out;
}

const deltas = (parts: Part[]) => parts.map((part) => ("delta" in part ? part.delta : part.type));

describe("coalesceDeltas", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  test("a burst: the first delta goes at once, the rest of the burst as one part before the next kind of part", async () => {
    vi.useFakeTimers();
    const out = await through([
      { type: "text-start", id: "t" },
      text("You "),
      text("have "),
      text("two "),
      text("events."),
      { type: "text-end", id: "t" },
      finish,
    ]);
    expect(deltas(out)).toEqual(["text-start", "You ", "have two events.", "text-end", "finish"]);
  });

  test("deltas spread over time: one part per window while they flow, a pause lets the next go at once", async () => {
    vi.useFakeTimers();
    const out = await through([text("a"), 10, text("b"), 10, text("c"), 25, text("d"), 10, text("e"), 200, text("f")]);
    // a at 0; b and c wait for 40 and go together; d (45) and e (55) wait for 80; f after the pause at once
    expect(deltas(out)).toEqual(["a", "bc", "de", "f"]);
  });

  test("a pending delta goes on its own time even when nothing follows it", async () => {
    vi.useFakeTimers();
    const transform = coalesceDeltas(40);
    const writer = transform.writable.getWriter();
    const reader = transform.readable.getReader();
    const first = reader.read();
    await writer.write(text("a"));
    expect(await first).toEqual({ done: false, value: text("a") });
    const next = reader.read();
    await writer.write(text("b"));
    await vi.advanceTimersByTimeAsync(39);
    expect(await Promise.race([next, "not yet"])).toBe("not yet");
    await vi.advanceTimersByTimeAsync(1);
    expect(await next).toEqual({ done: false, value: text("b") });
  });

  test("only deltas of one kind and id join, and parts with provider metadata stay as they are", async () => {
    vi.useFakeTimers();
    const withMeta: Part = { type: "text-delta", id: "t", delta: "m", providerMetadata: { p: { x: 1 } } };
    const out = await through([
      text("a"),
      text("b"),
      text("c", "other"),
      { type: "tool-input-delta", id: "call", delta: '{"pa' },
      { type: "tool-input-delta", id: "call", delta: 'th":1}' },
      withMeta,
      text("d"),
      text("e"),
    ]);
    expect(out).toEqual([
      text("a"),
      text("b"),
      text("c", "other"),
      { type: "tool-input-delta", id: "call", delta: '{"path":1}' },
      withMeta,
      text("de"),
    ]);
  });
});

describe("withCoalescedDeltas", () => {
  test("keeps the model's identity and hands its stream through the merge", async () => {
    const parts: Part[] = [{ type: "stream-start", warnings: [] }, text("a"), text("b"), text("c"), finish];
    const model = withCoalescedDeltas({
      specificationVersion: "v4",
      provider: "p",
      modelId: "m",
      supportedUrls: { "image/*": [/^https:/] },
      doGenerate: () => Promise.reject(new Error("stream only")),
      doStream: async () => ({
        stream: new ReadableStream<Part>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
        request: { body: "sent" },
      }),
    });
    expect([model.provider, model.modelId, model.supportedUrls]).toEqual(["p", "m", { "image/*": [/^https:/] }]);
    const result = await model.doStream({ prompt: [] });
    expect(result.request).toEqual({ body: "sent" });
    const out: Part[] = [];
    for await (const part of result.stream) out.push(part);
    expect(deltas(out)).toEqual(["stream-start", "a", "bc", "finish"]);
  });
});
