import { describe, expect, test } from "vitest";
import { mcpResult, mcpTool } from "../../../functions/tool-agent/mcp/mcp-server.ts";
import { answerOf, cutAfter } from "../../../functions/tool-agent/sources/tool-http.ts";
import type { StoredTool } from "../../../functions/tool-agent/tool-types.ts";

const chunks = (parts: string[], everyMs: number) => {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      await new Promise((r) => setTimeout(r, everyMs));
      if (i < parts.length) controller.enqueue(new TextEncoder().encode(parts[i++]));
      else controller.close();
    },
  });
};

/** Sends `parts` at once, then nothing more until cancelled: the deadline always falls after the last part. */
const thenSilent = (parts: string[]) => {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull: (controller) => (i < parts.length ? controller.enqueue(new TextEncoder().encode(parts[i++])) : new Promise<void>(() => {})),
  });
};

const readAll = async (stream: ReadableStream<Uint8Array>) => {
  const seen: string[] = [];
  const reader = stream.getReader();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) seen.push(new TextDecoder().decode(next.value));
    return { seen, error: undefined };
  } catch (error) {
    return { seen, error: (error as Error).message };
  }
};

test("a stream passes through whole before its deadline, and ends with an error past it", async () => {
  expect(await new Response(cutAfter(chunks(["a", "b", "c"], 5), 1_000)).text()).toBe("abc");
  const { seen, error } = await readAll(cutAfter(thenSilent(["a", "b"]), 100));
  expect(seen).toEqual(["a", "b"]);
  expect(error).toBe("the tool's stream ran past its deadline (100 ms)");
});

describe("an event stream past its deadline", () => {
  const errorEvent = (ms: number) =>
    `event: error\ndata: {"code":"TOOL_UNAVAILABLE","message":"the tool's stream ran past its deadline (${ms} ms)"}\n\n`;

  test("between events: ends cleanly with a last error event", async () => {
    // The fourth chunk closes the third event across a chunk boundary.
    const events = ["data: 1\n\n", "data: 2\r\n\r\n", "data: 3\n", "\n"];
    const { seen, error } = await readAll(cutAfter(thenSilent(events), 100, { eventStream: true }));
    expect({ seen, error }).toEqual({ seen: [...events, errorEvent(100)], error: undefined });
  });

  test("cut before the first byte: only the error event", async () => {
    const { seen, error } = await readAll(cutAfter(thenSilent([]), 100, { eventStream: true }));
    expect({ seen, error }).toEqual({ seen: [errorEvent(100)], error: undefined });
  });

  test("in the middle of an event: ends with an error, since a closing blank line would deliver half an event", async () => {
    const { seen, error } = await readAll(cutAfter(thenSilent(["data: 1\n\n", "data: 2"]), 100, { eventStream: true }));
    expect(seen).toEqual(["data: 1\n\n", "data: 2"]);
    expect(error).toMatch(/past its deadline/);
  });
});

test("in stream mode a success keeps its body and content type; a failure is read as JSON", async () => {
  const slowSse = new Response(thenSilent(["data: 1\n\n"]), { headers: { "content-type": "Text/Event-Stream; charset=utf-8" } });
  const cut = await answerOf(slowSse, 1_000, "stream", 100);
  // Read as an event stream whatever the case of its type: ends with the error event.
  expect(cut.ok && "stream" in cut ? await cut.stream.text() : "").toMatch(/^data: 1\n\nevent: error\n/);

  const ok = await answerOf(new Response("data: 1\n\n", { headers: { "content-type": "text/event-stream" } }), 1_000, "stream", 1_000);
  expect(ok.ok && "stream" in ok && ok.stream.headers.get("content-type")).toBe("text/event-stream");
  expect(ok.ok && "stream" in ok ? await ok.stream.text() : "").toBe("data: 1\n\n");
  const failed = await answerOf(Response.json({ error: { message: "no" } }, { status: 400 }), 1_000, "stream", 1_000);
  expect(failed).toMatchObject({ ok: false, code: "TOOL_FAILED", message: "the tool answered HTTP 400: no" });
});

const stored = (input_schema: unknown, output_schema: unknown): StoredTool =>
  ({ tool: { tool_id: "t", name: "T", description: "", input_schema, output_schema }, sources: [], route: null }) as unknown as StoredTool;

test("MCP tools: object schemas pass through, anything else reads as any object", () => {
  expect(mcpTool(stored({ type: "object", properties: { a: { type: "string" } } }, { type: "object" }))).toEqual({
    name: "t",
    title: "T",
    description: "T",
    inputSchema: { type: "object", properties: { a: { type: "string" } } },
    outputSchema: { type: "object" },
  });
  expect(mcpTool(stored({ type: "string" }, {}))).toEqual({ name: "t", title: "T", description: "T", inputSchema: { type: "object" } });
});

test("MCP results: success carries text and structured content; everything else is an error result", () => {
  const success = mcpResult({
    httpStatus: 200,
    body: { status: "success", result: { n: 1 }, error: null, tool_id: "t", source: { position: 0, type: "local" } },
  });
  expect(success).toEqual({ content: [{ type: "text", text: '{"n":1}' }], structuredContent: { n: 1 } });
  const list = mcpResult({
    httpStatus: 200,
    body: { status: "success", result: [1, 2], error: null, tool_id: "t", source: { position: 0, type: "local" } },
  });
  expect(list).toEqual({ content: [{ type: "text", text: "[1,2]" }] });
  const failed = mcpResult({ httpStatus: 400, body: { status: "error", result: null, error: { code: "INVALID_PARAMS", message: "m" } } });
  expect(failed.isError).toBe(true);
  expect(JSON.parse((failed.content as { text: string }[])[0]!.text)).toEqual({ code: "INVALID_PARAMS", message: "m" });
});
