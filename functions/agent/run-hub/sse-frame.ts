// One event as SSE bytes: its number as the `id:` (what a client sends back to resume) and the
// event as one `data:` line, exactly what @ag-ui/encoder's encodeSSE writes (nulls in optional
// fields left out, as the protocol's schemas expect). Written here rather than imported: the
// encoder package also carries a protobuf encoder and runtime the Worker never uses, 17 KiB
// gzip of its bundle (docs/performance.md). Nulls are dropped here too rather than with
// @ag-ui/core's omitOptionalNulls, whose table of every event shape the protocol has is 8 KiB
// gzip: every field of the events a run emits that can be null is an optional top-level one
// (the constructors in ag-ui-events.ts), and nested values (a custom event's value, a result's
// metadata) are free JSON the encoder keeps as they are. test/unit/agent/sse-frame.test.ts holds
// the two byte for byte together.
import type { AgentEvent } from "../runtime/ag-ui-events.ts";

const utf8 = new TextEncoder();

const withoutNulls = (event: AgentEvent) => Object.fromEntries(Object.entries(event).filter(([, value]) => value !== null));

/** The frame as text, for a writer that sends several frames as one chunk. */
export const sseText = (seq: number, event: AgentEvent): string => `id: ${seq}\ndata: ${JSON.stringify(withoutNulls(event))}\n\n`;

export const sseFrame = (seq: number, event: AgentEvent): Uint8Array => utf8.encode(sseText(seq, event));
