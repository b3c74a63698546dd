// The language model for the load benchmark: an OpenAI Chat Completions server (the real wire
// format, test/support/openai-server/chat-wire.ts) that answers from what each request holds,
// so any number of concurrent runs can share it. Run as its own process, so its CPU is counted
// apart from the Worker's. It prints its base URL on stdout once it listens.
//   intent (a JSON-schema response format)      -> the routing answer
//   a user message starting "Hello"             -> a plain answer, no tool
//   otherwise: no skill read yet                -> view_skill_file calendar/SKILL.md
//              skill read, no calendar.read yet -> project_cli calendar.read for today
//              calendar.read answered           -> the answer
// Run: node test/bench/support/load-model-server.ts
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { chatCompletion, chatCompletionChunks } from "../../support/openai-server/chat-wire.ts";
import type { PlannedToolCall } from "../../support/openai-server/replies.ts";

/** test/bench/load.ts asks its plain questions with this opening. */
const PLAIN_PREFIX = "Hello";

type Answer = { text: string } | { toolCalls: PlannedToolCall[] };

type Message = { role?: string; content?: unknown; tool_calls?: Array<{ function?: { name?: string } }> };

const textOf = (content: unknown): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content.map((part: { text?: unknown }) => (typeof part?.text === "string" ? part.text : "")).join(" ")
      : "";

function replyFor(body: { messages?: Message[]; response_format?: unknown }): Answer {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const lastUser = [...messages].reverse().find((m) => m.role === "user");
  if (body.response_format) {
    const plain = textOf(lastUser?.content).startsWith(PLAIN_PREFIX);
    return {
      text: JSON.stringify({
        objective: plain ? "greet the user" : "show today's calendar",
        requires_tool: !plain,
        selected_skill: plain ? null : "calendar",
        intended_action: plain ? null : "list_day",
        known_entities: null,
        known_time_range: null,
        missing_fields: null,
      }),
    };
  }
  if (textOf(lastUser?.content).startsWith(PLAIN_PREFIX)) return { text: "Hello! I can read, create and share events on your calendar." };
  const called = messages.flatMap((m) => (m.role === "assistant" ? (m.tool_calls ?? []).map((c) => c.function?.name) : []));
  if (called.includes("project_cli")) return { text: "You have a project sync at ten and lunch at noon, and nothing after three." };
  if (called.includes("view_skill_file")) {
    const today = new Date().toISOString().slice(0, 10);
    return {
      toolCalls: [
        { name: "project_cli", arguments: { module: "calendar", method: "read", input: { mode: "day", date: today, timezone: "UTC" } } },
      ],
    };
  }
  return { toolCalls: [{ name: "view_skill_file", arguments: { path: "calendar/SKILL.md" } }] };
}

let served = 0;
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    let body: {
      messages?: Message[];
      response_format?: unknown;
      stream?: boolean;
      model?: string;
      stream_options?: { include_usage?: boolean };
    };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      res.writeHead(400).end();
      return;
    }
    const reply = replyFor(body);
    const n = ++served;
    const model = body.model ?? "load-model";
    if (body.stream !== true) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(chatCompletion(reply, model, n)));
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.end(chatCompletionChunks(reply, model, n, body.stream_options?.include_usage === true).join(""));
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`);
});
