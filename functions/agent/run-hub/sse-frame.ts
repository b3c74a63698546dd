// One event as SSE bytes: its number as the `id:` (what a client sends back to resume) and the
// event as one `data:` line, exactly what @ag-ui/encoder's encodeSSE writes (nulls in optional
// fields left out, as the protocol's schemas expect). Written here rather than imported: the
// encoder package also carries a protobuf encoder and runtime the Worker never uses, 17 KiB
// gzip of its bundle (docs/performance.md). test/unit/agent/sse-frame.test.ts holds the two
// byte for byte together.
import { omitOptionalNulls } from "@ag-ui/core";
import type { AgentEvent } from "../runtime/ag-ui-events.ts";

const utf8 = new TextEncoder();

export const sseFrame = (seq: number, event: AgentEvent): Uint8Array =>
  utf8.encode(`id: ${seq}\ndata: ${JSON.stringify(omitOptionalNulls(event, "Event"))}\n\n`);
