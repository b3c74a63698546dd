// A thread's history (GET /api/v1/agent/threads/{id}/history) as the AG-UI events that would
// have drawn it live, grouped by run, so history and a live run are drawn by the same code.
import { type BaseEvent, EventType } from "@ag-ui/client";
import { isRecord } from "./values.ts";

export interface HistoryTurn {
  runId: string;
  user?: { text: string; imageUrls: string[] };
  events: BaseEvent[];
}

const text = (value: unknown) => (typeof value === "string" ? value : "");

function userTurn(message: Record<string, unknown>): HistoryTurn["user"] {
  const metadata = isRecord(message.metadata) ? message.metadata : {};
  const attachments = Array.isArray(metadata.attachments) ? metadata.attachments.filter(isRecord) : [];
  // Only the Worker's own image route is fetched (with the token); anything else a row says is ignored.
  const imageUrls = attachments.map((a) => text(a.url)).filter((url) => url.startsWith("/api/v1/agent/runs/"));
  return { text: text(message.content), imageUrls };
}

export function historyTurns(messages: unknown): HistoryTurn[] {
  const turns: HistoryTurn[] = [];
  const turnOf = (runId: string) => {
    let turn = turns.at(-1);
    if (!turn || turn.runId !== runId) {
      turn = { runId, events: [] };
      turns.push(turn);
    }
    return turn;
  };
  for (const message of Array.isArray(messages) ? messages.filter(isRecord) : []) {
    const metadata = isRecord(message.metadata) ? message.metadata : {};
    const turn = turnOf(text(metadata.run_id));
    const id = text(message.id);
    if (message.role === "user") {
      turn.user = userTurn(message);
    } else if (message.role === "assistant" && Array.isArray(message.toolCalls)) {
      for (const call of message.toolCalls.filter(isRecord)) {
        const fn = isRecord(call.function) ? call.function : {};
        const toolCallId = text(call.id);
        turn.events.push(
          { type: EventType.TOOL_CALL_START, toolCallId, toolCallName: text(fn.name), parentMessageId: id } as BaseEvent,
          { type: EventType.TOOL_CALL_ARGS, toolCallId, delta: text(fn.arguments) } as BaseEvent,
          { type: EventType.TOOL_CALL_END, toolCallId } as BaseEvent,
        );
      }
    } else if (message.role === "assistant") {
      turn.events.push(
        { type: EventType.TEXT_MESSAGE_START, messageId: id, role: "assistant" } as BaseEvent,
        { type: EventType.TEXT_MESSAGE_CONTENT, messageId: id, delta: text(message.content) } as BaseEvent,
        { type: EventType.TEXT_MESSAGE_END, messageId: id } as BaseEvent,
      );
    } else if (message.role === "tool") {
      turn.events.push({
        type: EventType.TOOL_CALL_RESULT,
        messageId: id,
        toolCallId: text(message.toolCallId),
        content: text(message.content),
        metadata,
      } as BaseEvent);
    }
  }
  return turns;
}
