// History replay: stored rows back into AG-UI messages, with tool cards identical to the ones
// the live stream carried. The card is compiled from the ui_hints kept in the message's
// metadata; the content (the tool result as JSON) comes from the payload, or, when the payload
// cannot be read, falls back to the stored summary.
//
// Rows are the user's own, but the user could have shaped them (any argument of the recording
// functions is the caller's), so nothing in a row may lead elsewhere: the payload key is derived
// from the verified user id, the row's run id and its ids (payloadPath), never read from the row,
// and a payload is used only when it says it belongs to that very run and tool call.
import { z } from "zod";
import type { Database } from "../../lib/database.types.ts";
import { compileCard, LOCALES, UiHints } from "../post-processing/index.ts";
import type { HistoryMessage } from "./history-message.ts";
import { withImageUrls } from "./image-store.ts";
import { type PayloadStore, payloadPath } from "./payload-store.ts";
import type { ToolPayload } from "./records.ts";

/**
 * A stored message as history reads it, typed by the generated schema. `position` is its place
 * in the thread (1, 2, 3, ..., assigned by the recording functions); `metadata` is raw JSON.
 */
export type MessageRow = Pick<
  Database["public"]["Tables"]["messages"]["Row"],
  "id" | "position" | "run_id" | "role" | "content" | "metadata" | "created_at"
>;

// Metadata holds whatever the recording functions were given, and the user gives those: each
// field history reads is parsed on its own, and one of the wrong type reads as absent.
const optionalString = z.string().optional().catch(undefined);
const StoredMetadata = z
  .object({
    message_id: optionalString,
    tool_call_id: optionalString,
    tool_name: optionalString,
    payload_missing: z.boolean().optional().catch(undefined),
    failure_superseded: z.boolean().optional().catch(undefined),
    locale: z.enum(LOCALES).optional().catch(undefined),
    // Passed through as stored, or parsed where they are used (ui_hints).
    status: z.unknown().optional(),
    summary_version: z.unknown().optional(),
    ui_hints: z.unknown().optional(),
    attachments: z.unknown().optional(),
  })
  .catch({});
type StoredMetadata = z.output<typeof StoredMetadata>;

/** The payload of one tool message, when it is the caller's own and really this message's. */
async function payloadOf(
  row: MessageRow,
  meta: StoredMetadata,
  ownerId: string,
  payloads: PayloadStore | undefined,
): Promise<ToolPayload | undefined> {
  const { tool_call_id: toolCallId, message_id: messageId } = meta;
  if (!payloads || meta.payload_missing === true || !row.run_id || !toolCallId || !messageId) return undefined;
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

async function toolMessages(
  row: MessageRow,
  meta: StoredMetadata,
  ownerId: string,
  payloads: PayloadStore | undefined,
): Promise<HistoryMessage[]> {
  const payload = await payloadOf(row, meta, ownerId, payloads);
  const toolCallId = meta.tool_call_id ?? row.id;
  const toolName = meta.tool_name ?? "project_cli";
  // Stored hints are parsed like any input: a shape the codec was not built for replays no card
  // instead of failing the whole page.
  const parsedHints = UiHints.safeParse(meta.ui_hints);
  // A failure the model got past in the same run shows no card, as it did not live.
  const hints = parsedHints.success && meta.failure_superseded !== true ? parsedHints.data : null;
  return [
    {
      id: `${meta.message_id ?? row.id}-call`,
      role: "assistant",
      toolCalls: [
        { id: toolCallId, type: "function", function: { name: toolName, arguments: payload ? JSON.stringify(payload.args ?? {}) : "{}" } },
      ],
      metadata: { run_id: row.run_id, seq: row.position },
    },
    {
      id: meta.message_id ?? row.id,
      role: "tool",
      toolCallId,
      content: payload?.content ?? row.content,
      metadata: {
        tool_name: toolName,
        status: meta.status,
        summary: row.content,
        summary_version: meta.summary_version,
        ui_schema: hints ? compileCard(hints, meta.locale) : null,
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
      const meta = StoredMetadata.parse(row.metadata);
      if (row.role === "tool") return toolMessages(row, meta, ownerId, payloads);
      if (row.role === "user") {
        return [
          {
            id: meta.message_id ?? row.id,
            role: "user",
            content: row.content,
            metadata: { attachments: withImageUrls(meta.attachments, row.run_id), run_id: row.run_id, seq: row.position },
          },
        ];
      }
      if (row.role === "assistant")
        return [
          {
            id: meta.message_id ?? row.id,
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
