// The POST's live stream: the run's numbered batches as SSE frames, one chunk each, closed by
// the terminal event, and indifferent to a client that went away (the run goes on; the hub
// keeps the events).
import { describe, expect, test } from "vitest";
import { liveStream } from "../../../functions/agent/run-hub/live-stream.ts";
import { sseFrame } from "../../../functions/agent/run-hub/sse-frame.ts";
import { agUi } from "../../../functions/agent/runtime/ag-ui-events.ts";

const finished = agUi.runFinished(
  "t",
  "r",
  { step_count: 0, usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0, by_stage: {} } },
  [],
);
const text = (bytes: Uint8Array[]) => bytes.map((b) => new TextDecoder().decode(b)).join("");
const [a, b, c] = [0, 1, 2].map((n) => agUi.custom("n", n)) as [
  ReturnType<typeof agUi.custom>,
  ReturnType<typeof agUi.custom>,
  ReturnType<typeof agUi.custom>,
];

describe("liveStream", () => {
  test("a batch is one chunk of frames numbered from where it starts; the terminal event closes the stream", async () => {
    const live = liveStream();
    const reader = live.stream.getReader();
    const started = agUi.runStarted("t", "r", {});
    live.send(0, [started]);
    live.send(5, [a, b]); // numbers are the run's: the stream never renumbers
    live.send(7, [c, finished]);
    live.send(9, [agUi.custom("n", 3)]); // after the end: dropped
    const chunks: Uint8Array[] = [];
    for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
    expect(chunks.map((chunk) => text([chunk]))).toEqual([
      text([sseFrame(0, started)]),
      text([sseFrame(5, a), sseFrame(6, b)]),
      text([sseFrame(7, c), sseFrame(8, finished)]),
    ]);
  });

  test("end() closes a stream without a terminal event, and may be called again", async () => {
    const live = liveStream();
    live.send(0, [a]);
    live.end();
    live.end();
    expect(await new Response(live.stream).text()).toBe(text([sseFrame(0, a)]));
  });

  test("a client that went away leaves the run's sends and end harmless", async () => {
    const live = liveStream();
    const reader = live.stream.getReader();
    live.send(0, [a]);
    await reader.read();
    await reader.cancel();
    expect(() => {
      live.send(1, [b]);
      live.send(2, [finished]);
      live.end();
    }).not.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 0)); // a rejected write would surface here
  });

  test("an event that cannot be written ends the stream without throwing into the run", async () => {
    const live = liveStream();
    live.send(0, [a]);
    expect(() => live.send(1, [agUi.custom("n", { size: 1n })])).not.toThrow(); // JSON has no BigInt
    live.send(2, [b]); // after the end: dropped
    expect(await new Response(live.stream).text()).toBe(text([sseFrame(0, a)]));
  });
});
