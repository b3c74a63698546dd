// The baseline for the run-overhead benchmark: a bare Hono SSE endpoint on the same runtime,
// streaming as many events of a similar size as a demo agent run, with no work behind them.
import { Hono } from "hono";

const app = new Hono().post("/", async (c) => {
  const count = Number(c.req.query("events") ?? 30);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < count; i++) {
        controller.enqueue(
          encoder.encode(
            `data: ${JSON.stringify({ type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: `word${i} `, timestamp: Date.now() })}\n\n`,
          ),
        );
      }
      controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
});

export default app;
