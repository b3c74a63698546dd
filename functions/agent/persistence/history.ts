// History replay: stored rows back into AG-UI messages, with tool cards identical to the ones
// the live stream carried. The card is compiled from the ui_hints kept in the message's
// metadata; the content (the tool result as JSON) comes from the payload, or, when the payload
// cannot be read, falls back to the stored summary.
//
// Rows are the user's own, but the user could have shaped them (any argument of the recording
// functions is the caller's), so nothing in a row may lead elsewhere: the payload key is derived
// from the verified user id, the row's run id and its ids (payloadPath), never read from the row,
// and a payload is used only when it says it belongs to that very run and tool call.
import { compileCard, UiHints } from "../post-processing/index.ts";
import type { HistoryMessage } from "./history-message.ts";
import { type PayloadStore, payloadPath } from "./payload-store.ts";
import type { ToolPayload } from "./records.ts";

export interface MessageRow {
  id: string;
  /** The message's place in its thread: 1, 2, 3, ... (assigned by the recording functions). */
  position: number;
  run_id: string | null;
  role: "user" | "assistant" | "tool" | "system";
  content: string;
  metadata: Record<string, unknown>;
  created_at: string;
}

const str = (value: unknown) => (typeof value === "string" ? value : undefined);

/** The payload of one tool message, when it is the caller's own and really this message's. */
async function payloadOf(row: MessageRow, ownerId: string, payloads: PayloadStore | undefined): Promise<ToolPayload | undefined> {
  const toolCallId = str(row.metadata.tool_call_id);
  const messageId = str(row.metadata.message_id);
  if (!payloads || row.metadata.payload_missing === true || !row.run_id || !toolCallId || !messageId) return undefined;
  const path = payloadPath(ownerId, row.run_id, toolCallId, messageId);
  const stored = path ? await payloads.get(path) : undefined;
  if (!isToolPayload(stored) || stored.run_id !== row.run_id || stored.tool_call_id !== toolCallId) return undefined;
  return stored;
}

function isToolPayload(value: unknown): value is ToolPayload {
  if (typeof value !== "object" || value === null) return false;
  const { run_id, tool_call_id, content } = value as Record<string, unknown>;
  return typeof run_id === "string" && typeof tool_call_id === "string" && typeof content === "string";
}

async function toolMessages(row: MessageRow, ownerId: string, payloads: PayloadStore | undefined): Promise<HistoryMessage[]> {
  const meta = row.metadata;
  const payload = await payloadOf(row, ownerId, payloads);
  const toolCallId = str(meta.tool_call_id) ?? row.id;
  const toolName = str(meta.tool_name) ?? "project_cli";
  // Stored hints are parsed like any input: a shape the codec was not built for replays no card
  // instead of failing the whole page.
  const parsedHints = UiHints.safeParse(meta.ui_hints);
  const hints = parsedHints.success ? parsedHints.data : null;
  return [
    {
      id: `${str(meta.message_id) ?? row.id}-call`,
      role: "assistant",
      toolCalls: [
        { id: toolCallId, type: "function", function: { name: toolName, arguments: payload ? JSON.stringify(payload.args ?? {}) : "{}" } },
      ],
      metadata: { run_id: row.run_id, seq: row.position },
    },
    {
      id: str(meta.message_id) ?? row.id,
      role: "tool",
      toolCallId,
      content: payload?.content ?? row.content,
      metadata: {
        tool_name: toolName,
        status: meta.status,
        summary: row.content,
        summary_version: meta.summary_version,
        ui_schema: hints ? compileCard(hints) : null,
        payload_available: payload !== undefined,
        run_id: row.run_id,
        seq: row.position,
      },
    },
  ];
}

/** `ownerId` is the verified caller: the only prefix payloads are read from. */
export async function toHistoryMessages(
  rows: readonly MessageRow[],
  ownerId: string,
  payloads: PayloadStore | undefined,
): Promise<HistoryMessage[]> {
  const converted = await Promise.all(
    rows.map(async (row): Promise<HistoryMessage[]> => {
      if (row.role === "tool") return toolMessages(row, ownerId, payloads);
      if (row.role === "user") {
        return [
          {
            id: str(row.metadata.message_id) ?? row.id,
            role: "user",
            content: row.content,
            metadata: { attachments: row.metadata.attachments ?? [], run_id: row.run_id, seq: row.position },
          },
        ];
      }
      if (row.role === "assistant")
        return [
          {
            id: str(row.metadata.message_id) ?? row.id,
            role: "assistant",
            content: row.content,
            metadata: { run_id: row.run_id, seq: row.position },
          },
        ];
      return [];
    }),
  );
  return converted.flat();
}
