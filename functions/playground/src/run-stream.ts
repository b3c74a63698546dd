// A run's event stream through the official AG-UI client: HttpAgent starts the run, and a
// resumed stream goes through the same transport and parser HttpAgent uses (runHttpRequest and
// transformHttpEventStream), since a stream resumed mid-run does not begin with RUN_STARTED,
// which HttpAgent's checks require. The client keeps only the events, not their SSE ids, so the
// fetch it is given reads the `id:` lines on the way through: each event arrives with its id,
// which is what a resume after a reload sends as Last-Event-ID.
import { type BaseEvent, EventType, HttpAgent, type Message, runHttpRequest, transformHttpEventStream } from "@ag-ui/client";
import { errorOf } from "./http.ts";

export interface StreamHandlers {
  /** One event and its SSE id, in stream order. */
  onEvent(event: BaseEvent, id: number): void;
  /** The stream could not start or broke: a refusal before the stream (with the server's code), or a network failure. */
  onFailure(code: string, message: string): void;
}

/** A fetch that hands the SSE ids of the response to `ids`, in order, as its bytes pass. */
export function fetchRecordingIds(ids: number[]) {
  return async (url: string, init: RequestInit): Promise<Response> => {
    const response = await fetch(url, init);
    if (!response.ok || !response.body) return response;
    const decoder = new TextDecoder();
    let pending = "";
    const scan = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        pending += decoder.decode(chunk, { stream: true });
        const lines = pending.split("\n");
        pending = lines.pop() ?? "";
        for (const line of lines) {
          const match = /^id: ?(-?\d+)\r?$/.exec(line);
          if (match) ids.push(Number(match[1]));
        }
        controller.enqueue(chunk);
      },
    });
    return new Response(response.body.pipeThrough(scan), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** What the client's transport throws for an HTTP refusal: `HTTP <status>: ...` with the parsed body. */
function failureOf(error: unknown): { code: string; message: string } {
  if (error instanceof Error && "status" in error && typeof error.status === "number")
    return errorOf((error as Error & { payload?: unknown }).payload, error.status);
  if (error instanceof Error && error.name === "AbortError") return { code: "ABORTED", message: "the stream was closed" };
  return { code: "STREAM_FAILED", message: error instanceof Error ? error.message : String(error) };
}

function nextId(ids: number[], last: { id: number }): number {
  last.id = ids.shift() ?? last.id + 1;
  return last.id;
}

export interface StartRun {
  token: string;
  threadId: string;
  runId: string;
  message: Message;
  forwardedProps: Record<string, unknown>;
}

export async function startRun(run: StartRun, handlers: StreamHandlers): Promise<void> {
  const ids: number[] = [];
  const last = { id: -1 };
  const agent = new HttpAgent({
    url: "/api/v1/agent/runs",
    headers: { authorization: `Bearer ${run.token}` },
    threadId: run.threadId,
    fetch: fetchRecordingIds(ids),
  });
  agent.addMessage(run.message);
  try {
    await agent.runAgent(
      { runId: run.runId, forwardedProps: run.forwardedProps },
      { onEvent: ({ event }) => handlers.onEvent(event, nextId(ids, last)) },
    );
  } catch (error) {
    const failure = failureOf(error);
    handlers.onFailure(failure.code, failure.message);
  }
}

/** The rest of a run after the event with id `after` (sent as Last-Event-ID). */
export function resumeRun(token: string, runId: string, after: number, handlers: StreamHandlers): Promise<void> {
  const ids: number[] = [];
  const last = { id: after };
  const fetchIds = fetchRecordingIds(ids);
  const events$ = transformHttpEventStream(
    runHttpRequest(() =>
      fetchIds(`/api/v1/agent/runs/${encodeURIComponent(runId)}/events`, {
        headers: { authorization: `Bearer ${token}`, accept: "text/event-stream", "Last-Event-ID": String(after) },
      }),
    ),
  );
  return new Promise((resolve) => {
    const subscription = events$.subscribe({
      next: (event) => {
        handlers.onEvent(event, nextId(ids, last));
        // Nothing follows a terminal event: close the connection rather than wait for the server to.
        if (event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR) {
          queueMicrotask(() => subscription.unsubscribe());
          resolve();
        }
      },
      error: (error: unknown) => {
        const failure = failureOf(error);
        handlers.onFailure(failure.code, failure.message);
        resolve();
      },
      complete: () => resolve(),
    });
  });
}
