// A scripted OpenAI-compatible server for tests: a Node HTTP server on 127.0.0.1 (free port)
// that speaks the real wire formats (Chat Completions and the Responses API, streaming or
// not), checks the API key, refuses what OpenAI refuses (schemas sent strict that break the
// strict rules, with OpenAI's error body), answers from a per-test plan, and records every
// request so tests can assert what the product sent.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { chatCompletion, chatCompletionChunks } from "./chat-wire.ts";
import { errorBody, type OpenAIErrorBody, type PlannedReply } from "./replies.ts";
import { responsesEvents, responsesResult } from "./responses-wire.ts";
import { strictSchemaViolation } from "./strict-schema-rules.ts";

export type { PlannedReply } from "./replies.ts";

export interface RecordedRequest {
  path: string;
  authorization: string | undefined;
  body: Record<string, unknown>;
  /** What the server answered: the HTTP status. */
  status: number;
}

export interface ScriptedOpenAI {
  /** Base URL to configure as AGENT_MODEL_BASE_URL (ends in /v1). */
  baseUrl: string;
  apiKey: string;
  /** Replies for structured-output calls (a JSON-schema response format), in order. */
  planStructured(...replies: PlannedReply[]): void;
  /** Replies for every other call (the tool loop), in order. */
  planTurns(...replies: PlannedReply[]): void;
  requests: RecordedRequest[];
  /** Forgets plans and recorded requests (between tests sharing one server). */
  reset(): void;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** The first schema sent with `strict: true` that breaks the rules, as OpenAI reports it. */
export function strictRequestViolation(path: string, body: Json): OpenAIErrorBody | undefined {
  const responses = path.endsWith("/responses");
  const format = responses
    ? isObject(body.text)
      ? body.text.format
      : undefined
    : isObject(body.response_format)
      ? body.response_format.json_schema
      : undefined;
  const formatType = responses
    ? isObject(format)
      ? format.type
      : undefined
    : isObject(body.response_format)
      ? body.response_format.type
      : undefined;
  if (formatType === "json_schema" && isObject(format) && format.strict === true) {
    const problem = strictSchemaViolation(format.schema);
    if (problem) {
      return errorBody(400, `Invalid schema for response_format '${String(format.name ?? "response")}': ${problem}`, {
        param: responses ? "text.format.schema" : "response_format",
        code: "invalid_json_schema",
      });
    }
  }
  const tools = Array.isArray(body.tools) ? body.tools : [];
  for (const [i, tool] of tools.entries()) {
    const fn = responses ? tool : isObject(tool) ? tool.function : undefined;
    if (!isObject(fn) || fn.strict !== true) continue;
    const problem = strictSchemaViolation(fn.parameters);
    if (problem) {
      return errorBody(400, `Invalid schema for function '${String(fn.name)}': ${problem}`, {
        param: responses ? `tools[${i}].parameters` : `tools[${i}].function.parameters`,
        code: "invalid_function_parameters",
      });
    }
  }
  return undefined;
}

const isStructured = (path: string, body: Json) =>
  path.endsWith("/responses")
    ? isObject(body.text) && isObject(body.text.format) && body.text.format.type === "json_schema"
    : isObject(body.response_format);

export async function startScriptedOpenAI(options: { apiKey?: string } = {}): Promise<ScriptedOpenAI> {
  const apiKey = options.apiKey ?? `sk-test-${crypto.randomUUID()}`;
  let structured: PlannedReply[] = [];
  let turns: PlannedReply[] = [];
  const requests: RecordedRequest[] = [];
  let served = 0;

  const sendJson = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: Json = {};
    try {
      const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
      if (isObject(parsed)) body = parsed;
    } catch {
      // recorded with an empty body; answered 400 below
    }
    const record: RecordedRequest = { path, authorization: req.headers.authorization, body, status: 200 };
    requests.push(record);
    const answer = (status: number, payload: unknown, headers?: Record<string, string>) => {
      record.status = status;
      sendJson(res, status, payload, headers);
    };

    if (req.method !== "POST" || !["/v1/chat/completions", "/v1/responses"].includes(path))
      return answer(404, errorBody(404, `Invalid URL (${req.method} ${path})`));
    if (req.headers.authorization !== `Bearer ${apiKey}`) {
      return answer(
        401,
        errorBody(401, "Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.", {
          code: "invalid_api_key",
        }),
      );
    }
    if (typeof body.model !== "string") return answer(400, errorBody(400, "you must provide a model parameter", { param: "model" }));
    const violation = strictRequestViolation(path, body);
    if (violation) return answer(400, violation);

    const queue = isStructured(path, body) ? structured : turns;
    const reply = queue.shift();
    if (!reply)
      return answer(
        500,
        errorBody(500, `scripted server: no reply planned for this ${isStructured(path, body) ? "structured" : "turn"} request`),
      );
    if ("status" in reply) {
      // Retry hints keep the SDK's retry of a 429/5xx fast in tests; OpenAI sends the same header.
      const headers: Record<string, string> = reply.status === 429 || reply.status >= 500 ? { "retry-after-ms": "10" } : {};
      return answer(reply.status, errorBody(reply.status, reply.message ?? "scripted failure", { code: reply.code ?? null }), headers);
    }

    if (reply.after) await reply.after;
    const n = ++served;
    const model = body.model;
    if (body.stream !== true) {
      return answer(200, path.endsWith("/responses") ? responsesResult(reply, model, n) : chatCompletion(reply, model, n));
    }
    const includeUsage = isObject(body.stream_options) && body.stream_options.include_usage === true;
    const frames = path.endsWith("/responses") ? responsesEvents(reply, model, n) : chatCompletionChunks(reply, model, n, includeUsage);
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    for (const frame of frames) res.write(frame);
    res.end();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, errorBody(500, `scripted server failed: ${String(error)}`));
      else res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    apiKey,
    planStructured: (...replies) => structured.push(...replies),
    planTurns: (...replies) => turns.push(...replies),
    requests,
    reset: () => {
      structured = [];
      turns = [];
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
