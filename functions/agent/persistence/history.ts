// History replay: stored rows back into AG-UI messages, with tool cards identical to the ones
// the live stream carried. The card is compiled from the ui_hints kept in the message's
// metadata; the content (the tool result as JSON) comes from the payload, or, when the payload
// cannot be read, falls back to the stored summary.
import { compileUiSchema, type UiHints } from "../post-processing/index.ts";
import type { PayloadStore } from "./payload-store.ts";
import type { ToolPayload } from "./records.ts";

export interface MessageRow {
  id: string;
  seq: number;
  run_id: string | null;
  role: "user" | "assistant" | "tool" | "system";
  content: string;
  metadata: Record<string, unknown>;
  created_at: string;
}

export interface HistoryMessage {
  id: string;
  role: "user" | "assistant" | "tool";
  content?: string;
  toolCallId?: string;
  toolCalls?: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }>;
  metadata: Record<string, unknown>;
}

const str = (value: unknown) => (typeof value === "string" ? value : undefined);

async function toolMessages(row: MessageRow, payloads: PayloadStore | undefined): Promise<HistoryMessage[]> {
  const meta = row.metadata;
  const path = str(meta.storage_path);
  const payload = path && payloads ? ((await payloads.get(path)) as ToolPayload | undefined) : undefined;
  const toolCallId = str(meta.tool_call_id) ?? row.id;
  const toolName = str(meta.tool_name) ?? "project_cli";
  const hints = (meta.ui_hints ?? null) as UiHints | null;
  return [
    {
      id: `${str(meta.message_id) ?? row.id}-call`,
      role: "assistant",
      toolCalls: [{ id: toolCallId, type: "function", function: { name: toolName, arguments: payload ? JSON.stringify(payload.args ?? {}) : "{}" } }],
      metadata: { run_id: row.run_id, seq: row.seq },
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
        ui_schema: hints ? compileUiSchema(hints) : null,
        payload_available: payload !== undefined,
        run_id: row.run_id,
        seq: row.seq,
      },
    },
  ];
}

export async function toHistoryMessages(rows: readonly MessageRow[], payloads: PayloadStore | undefined): Promise<HistoryMessage[]> {
  const converted = await Promise.all(
    rows.map(async (row): Promise<HistoryMessage[]> => {
      if (row.role === "tool") return toolMessages(row, payloads);
      if (row.role === "user") {
        return [{ id: str(row.metadata.message_id) ?? row.id, role: "user", content: row.content, metadata: { attachments: row.metadata.attachments ?? [], run_id: row.run_id, seq: row.seq } }];
      }
      if (row.role === "assistant") return [{ id: str(row.metadata.message_id) ?? row.id, role: "assistant", content: row.content, metadata: { run_id: row.run_id, seq: row.seq } }];
      return [];
    }),
  );
  return converted.flat();
}
