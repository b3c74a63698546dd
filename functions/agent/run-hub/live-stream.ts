// The stream a run's POST answers with, fed by the run itself (decision D42): each paced batch
// of events reaches the client that started the run when it is due, not when the hub has
// stored it, and a hub that fails costs this stream nothing. The run numbers its events (the
// event pipe) and the hub stores them under the same numbers, so a client that drops this
// stream resumes from the hub where it stopped, with the same ids. A client that goes away
// cancels only this stream; the run goes on and the hub keeps its events.
//
// A batch is one chunk: every chunk is a write through the runtime to the socket (and, on
// wrangler dev, through its proxy), and an event per chunk cost 1-2 ms of CPU per run more
// than the hub's batched stream did (docs/performance.md).
import { type AgentEvent, isTerminalEvent } from "../runtime/ag-ui-events.ts";
import { sseText } from "./sse-frame.ts";

export interface LiveStream {
  readonly stream: ReadableStream<Uint8Array>;
  /** Events numbered from `from`, as one chunk of SSE frames; a terminal event closes the stream. */
  send(from: number, events: readonly AgentEvent[]): void;
  /** Closes the stream (a run that stopped without a terminal event: the client may resume). */
  end(): void;
}

const utf8 = new TextEncoder();

export function liveStream(): LiveStream {
  // workerd's IdentityTransformStream hands written chunks to the response natively; a
  // ReadableStream with a JS source would be pulled through JavaScript for every chunk.
  // (Plain TransformStream where there is none: Node, for the unit tests.)
  const pipe =
    typeof IdentityTransformStream === "function" ? new IdentityTransformStream() : new TransformStream<Uint8Array, Uint8Array>();
  const writer = pipe.writable.getWriter();
  let open = true;
  const end = () => {
    if (!open) return;
    open = false;
    writer.close().catch(() => {});
  };
  return {
    stream: pipe.readable,
    send(from, events) {
      if (!open || events.length === 0) return;
      let frames: string;
      try {
        frames = events.map((event, i) => sseText(from + i, event)).join("");
      } catch {
        // An event that cannot be written ends this stream, not the run: the run, its record
        // and the hub's log go on, and the client may resume.
        end();
        return;
      }
      writer.write(utf8.encode(frames)).catch(() => {
        open = false; // the client went away: the run goes on without this stream
      });
      if (events.some(isTerminalEvent)) end();
    },
    end,
  };
}
