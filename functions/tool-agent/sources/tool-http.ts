// Every source kind speaks HTTP to its tool (endpoint_path and http_method): this
// builds the request a call sends and reads the tool's answer, the same way for a sandboxed
// module, a container and a remote API. Pure apart from reading the body.
import { readAtMost } from "../read-bytes.ts";
import type { SourceRow } from "../tool-types.ts";

export type SourceOutcome =
  | { ok: true; result: unknown }
  /** A streamed answer (select_tool with `stream: true`, for tools with stream_support). */
  | { ok: true; stream: Response }
  | {
      ok: false;
      code: "TOOL_FAILED" | "TOOL_UNAVAILABLE";
      message: string;
      /** The next source may do better: the tool could not be reached or failed on its side. */
      fallback: boolean;
      status?: number;
    };

/** GET and DELETE carry params in the query string (objects as JSON); the others as a JSON body. */
export function toolRequest(
  url: string,
  source: Pick<SourceRow, "http_method">,
  params: Record<string, unknown>,
  headers: HeadersInit = {},
): Request {
  const method = source.http_method;
  if (method === "GET" || method === "DELETE") {
    const target = new URL(url);
    for (const [name, value] of Object.entries(params)) {
      if (value === undefined || value === null) continue;
      target.searchParams.set(name, typeof value === "string" ? value : JSON.stringify(value));
    }
    return new Request(target, { method, headers: { accept: "application/json", ...headers } });
  }
  return new Request(url, {
    method,
    headers: { "content-type": "application/json", accept: "application/json", ...headers },
    body: JSON.stringify(params),
  });
}

/** Reads at most `maxBytes` of a body; undefined when it is larger. */
async function readBounded(response: Response, maxBytes: number): Promise<string | undefined> {
  const declared = Number(response.headers.get("content-length") ?? NaN);
  if (declared > maxBytes) {
    await response.body?.cancel();
    return undefined;
  }
  if (!response.body) return "";
  const bytes = await readAtMost(response.body, maxBytes);
  return bytes && new TextDecoder().decode(bytes);
}

/** The tool's own words about a failure, short; a JSON error's message if it has one. */
function toolSays(text: string): string {
  let said = text;
  try {
    const parsed = JSON.parse(text) as { error?: unknown; message?: unknown };
    const error = parsed.error as { message?: unknown } | string | undefined;
    said = String((typeof error === "object" ? error?.message : error) ?? parsed.message ?? text);
  } catch {
    // not JSON: the text as it is
  }
  return said.replace(/\s+/g, " ").trim().slice(0, 300);
}

/** A 2xx JSON answer is the result; 4xx is the tool refusing (no fallback); 5xx is the tool failing (fallback). */
export async function readToolAnswer(response: Response, maxBytes: number): Promise<SourceOutcome> {
  const text = await readBounded(response, maxBytes);
  if (text === undefined) {
    return {
      ok: false,
      code: "TOOL_FAILED",
      message: `the tool answered more than ${maxBytes} bytes`,
      fallback: false,
      status: response.status,
    };
  }
  if (!response.ok) {
    const fallback = response.status >= 500 || response.status === 429;
    return {
      ok: false,
      code: fallback ? "TOOL_UNAVAILABLE" : "TOOL_FAILED",
      message: `the tool answered HTTP ${response.status}${text ? `: ${toolSays(text)}` : ""}`,
      fallback,
      status: response.status,
    };
  }
  if (text === "") return { ok: true, result: null };
  try {
    return { ok: true, result: JSON.parse(text) };
  } catch {
    return {
      ok: false,
      code: "TOOL_FAILED",
      message: "the tool answered something that is not JSON",
      fallback: false,
      status: response.status,
    };
  }
}

/** A source that could not be reached at all (refused, timed out, crashed). */
export const unreachable = (message: string): SourceOutcome => ({ ok: false, code: "TOOL_UNAVAILABLE", message, fallback: true });

/** How a call wants the tool's answer: parsed JSON, or its body passed through as it streams. */
export type AnswerMode = "json" | "stream";

/**
 * A body bounded by the source's deadline, however the tool paces it. Past the deadline an event
 * stream that stands between two events ends cleanly with a last `event: error` (the way an SSE
 * client hears of a failure); any other body, or an event cut mid-event, ends with an error,
 * the only honest end for bytes whose format we do not know.
 *
 * Why not always the error: under `wrangler dev`, a response body that errors can leave the
 * dev proxy's connection to the Worker broken, and the next request over it makes `wrangler dev`
 * exit (cloudflare/workers-sdk#15451). SSE tools, the usual streaming ones, avoid that path.
 */
export function cutAfter(
  body: ReadableStream<Uint8Array>,
  ms: number,
  options: { eventStream?: boolean } = {},
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const endsAt = Date.now() + ms;
  let tail = "\n\n"; // the last bytes sent; nothing sent yet counts as between events
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const left = endsAt - Date.now();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<"late">((resolve) => {
        timer = setTimeout(() => resolve("late"), Math.max(0, left));
      });
      const next = await Promise.race([reader.read(), late]).finally(() => clearTimeout(timer));
      if (next === "late") {
        await reader.cancel().catch(() => {});
        const message = `the tool's stream ran past its deadline (${ms} ms)`;
        if (options.eventStream && closesAnEvent(tail)) {
          controller.enqueue(sseErrorEvent("TOOL_UNAVAILABLE", message));
          controller.close();
        } else {
          controller.error(new Error(message));
        }
      } else if (next.done) {
        controller.close();
      } else {
        tail = (tail + new TextDecoder().decode(next.value.subarray(-4))).slice(-4);
        controller.enqueue(next.value);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

const isEventStream = (contentType: string | null) => /^\s*text\/event-stream\s*(;|$)/i.test(contentType ?? "");

/** Whether SSE text ends with the blank line that closes an event (LF, CRLF or CR line ends). */
const closesAnEvent = (tail: string) => /(\n\n|\r\r|\r\n\r\n)$/.test(tail);

const sseErrorEvent = (code: string, message: string) =>
  new TextEncoder().encode(`event: error\ndata: ${JSON.stringify({ code, message })}\n\n`);

/** The answer in the mode asked for; a failing answer is read as JSON in either mode. */
export async function answerOf(response: Response, maxBytes: number, mode: AnswerMode, ms: number): Promise<SourceOutcome> {
  if (mode === "json" || !response.ok || !response.body) return readToolAnswer(response, maxBytes);
  const contentType = response.headers.get("content-type") ?? "application/octet-stream";
  const body = cutAfter(response.body, ms, { eventStream: isEventStream(contentType) });
  return { ok: true, stream: new Response(body, { status: 200, headers: new Headers({ "content-type": contentType }) }) };
}
