// The hub writes SSE frames itself instead of through @ag-ui/encoder (a smaller bundle); a
// client must not be able to tell. Every kind of event the run emits, including fields that
// are null where the protocol's optional fields allow only absence, against the encoder.
import { EventEncoder } from "@ag-ui/encoder";
import { describe, expect, it } from "vitest";
import { sseFrame } from "../../../functions/agent/run-hub/sse-frame.ts";
import { type AgentEvent, agUi } from "../../../functions/agent/runtime/ag-ui-events.ts";

const encoder = new EventEncoder({ accept: "text/event-stream" });
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

const events: AgentEvent[] = [
  agUi.runStarted("thread-1", "run-1", { model: "demo" }),
  agUi.stepStarted("intent"),
  agUi.stepFinished("intent"),
  agUi.custom("intent", { skills: ["calendar"], note: null }),
  agUi.textStart("m-1"),
  agUi.textContent("m-1", 'Quotes " and \\ and\nnew lines, emoji 📅, and \u2028'),
  agUi.textEnd("m-1"),
  agUi.toolCallStart("c-1", "project_cli", "m-1"),
  agUi.toolCallArgs("c-1", '{"module":"calendar","method":"read","input":{}}'),
  agUi.toolCallEnd("c-1"),
  agUi.toolCallResult("r-1", "c-1", '{"ok":true}', { card: { kind: "list", items: [] } }),
  agUi.runError("MODEL_UNAVAILABLE", "the model could not be reached"),
  agUi.runError("MODEL_UNAVAILABLE", "the model could not be reached", [{ provider: "openai", model: "m", inputTokens: 3 }]),
  // A result is free JSON: its nulls stay, in the encoder's frame and in ours.
  agUi.runFinished("thread-1", "run-1", { answer: null, tool_calls: [{ error: null, ui_schema: null }] } as never, [
    { provider: "openai", model: "m", inputTokens: 3, outputTokens: 2 },
  ]),
  agUi.runFinished("thread-1", "run-1", { answer: "ok" } as never, [], "cancelled"),
  // Optional fields sent as null: the encoder leaves them out, and so must the hub.
  { ...agUi.textStart("m-2"), rawEvent: null, timestamp: null } as unknown as AgentEvent,
  { ...agUi.toolCallStart("c-2", "view_skill_file", "m-2"), parentMessageId: null } as unknown as AgentEvent,
];

describe("sseFrame", () => {
  it.each(events.map((event, seq) => [event.type, seq, event] as const))(
    "%s is framed as @ag-ui/encoder frames it",
    (_type, seq, event) => {
      expect(text(sseFrame(seq, event))).toBe(`id: ${seq}\n${encoder.encodeSSE(event)}`);
    },
  );

  it("leaves out optional fields sent as null", () => {
    const frame = text(sseFrame(3, { ...agUi.textStart("m-3"), timestamp: null } as unknown as AgentEvent));
    expect(frame).not.toContain("timestamp");
    expect(frame.startsWith("id: 3\ndata: {")).toBe(true);
    expect(frame.endsWith("}\n\n")).toBe(true);
  });
});
