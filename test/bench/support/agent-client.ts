// The benchmarks' client of the run endpoints: starts a run, reads its SSE stream (noting when
// the first event and the end arrived), and resumes a run from an event id.

export const DEMO_QUESTION = "What is on my calendar today?";

export function runInput(threadId: string, runId: string, text = DEMO_QUESTION): string {
  return JSON.stringify({
    threadId,
    runId,
    messages: [{ id: "m", role: "user", content: text }],
    state: {},
    tools: [],
    context: [],
    forwardedProps: { timezone: "UTC" },
  });
}

export interface StreamTiming {
  /** Milliseconds from sending the request. */
  firstEventMs: number;
  endMs: number;
  events: number;
  bytes: number;
  /** The type of the last event (RUN_FINISHED when all went well). */
  lastType: string;
  lastId: number;
}

/** The last event's type, with its code when it is a RUN_ERROR (so a benchmark can say why runs failed). */
const lastTypeOf = (text: string) => {
  const last = text.slice(text.lastIndexOf("data: "));
  const type = /"type":"([A-Z_]+)"/.exec(last)?.[1] ?? "(none)";
  const code = type === "RUN_ERROR" ? /"code":"([A-Z_]+)"/.exec(last)?.[1] : undefined;
  return code ? `${type} ${code}` : type;
};

/**
 * Reads an SSE response to its end (or, with `stopAfterEvents`, aborts after that many events,
 * like a client that loses its connection).
 */
export async function readStream(
  response: Response,
  began: number,
  options: { stopAfterEvents?: number; abort?: AbortController } = {},
): Promise<StreamTiming> {
  if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}: ${(await response.text()).slice(0, 200)}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let firstEventMs = Number.NaN;
  let events = 0;
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    text += decoder.decode(value, { stream: true });
    if (Number.isNaN(firstEventMs) && text.includes("\n\n")) firstEventMs = performance.now() - began;
    events = text.split("\n\n").length - 1;
    if (options.stopAfterEvents !== undefined && events >= options.stopAfterEvents) {
      options.abort?.abort();
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  const complete = text.slice(0, text.lastIndexOf("\n\n") + 2);
  const ids = [...complete.matchAll(/^id: (\d+)$/gm)];
  return {
    firstEventMs,
    endMs: performance.now() - began,
    events,
    bytes,
    lastType: lastTypeOf(complete),
    lastId: ids.length > 0 ? Number(ids.at(-1)![1]) : -1,
  };
}

export async function startRun(baseUrl: string, token: string, body: string, options: { stopAfterEvents?: number } = {}) {
  const began = performance.now();
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}/api/v1/agent/runs`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body,
    signal: abort.signal,
  });
  return readStream(response, began, { ...options, abort });
}

export async function resumeRun(baseUrl: string, token: string, runId: string, after: number) {
  const began = performance.now();
  const response = await fetch(`${baseUrl}/api/v1/agent/runs/${runId}/events?after=${after}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return readStream(response, began);
}
