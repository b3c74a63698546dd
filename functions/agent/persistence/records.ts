// The rows a run leaves behind, as pure functions. messages.content is always text: the user's
// words, the answer, or, for tool messages, the short summary a person reads in the dashboard.
// Everything structured goes to metadata (what the card needs) and to the payload (the rest).
import type { Json } from "../../lib/database.types.ts";
import type { PostProcessedToolCall } from "../post-processing/index.ts";
import type { Attachment } from "../runtime/run-request.ts";

/** A JSON object as the database's jsonb columns take it. */
export type JsonObject = { [key: string]: Json | undefined };

/** One element of record_run_finish's p_messages (a type alias, so it is a JsonObject too). */
export type MessageRecord = {
  role: "user" | "assistant" | "tool";
  content: string;
  metadata: JsonObject;
};

export interface ToolPayload {
  tool_call_id: string;
  tool_name: string;
  run_id: string;
  /** Exactly the TOOL_CALL_RESULT content the live stream carried (the result as JSON). */
  content: string;
  args: unknown;
  tool_agent_output: PostProcessedToolCall["toolAgentOutput"];
  recorded_at: string;
}

export function userMessageMetadata(attachments: readonly Attachment[], messageId: string): JsonObject {
  return { message_id: messageId, attachments: [...attachments] };
}

export function toolMessageRecord(options: {
  runId: string;
  messageId: string;
  toolCallId: string;
  processed: PostProcessedToolCall;
  storage: { bucket: string; path: string } | undefined;
}): MessageRecord {
  const output = options.processed.toolAgentOutput;
  // Only project_cli's result names a module and method.
  const called = output.tool_name === "project_cli" ? output.result : undefined;
  return {
    role: "tool",
    content: options.processed.summary,
    metadata: {
      message_id: options.messageId,
      tool_call_id: options.toolCallId,
      tool_name: output.tool_name,
      run_id: options.runId,
      stage: "execution",
      status: output.status,
      summary_version: options.processed.summaryVersion,
      locale: options.processed.locale,
      // What later turns of the thread are told of this call (record_run_start returns it).
      context: options.processed.context,
      storage_bucket: options.storage?.bucket ?? null,
      storage_path: options.storage?.path ?? null,
      payload_missing: options.storage === undefined,
      // Enough of the ToolAgentOutput to rebuild the card without the payload.
      module: called?.module ?? null,
      method: called?.method ?? null,
      ui_hints: output.ui_hints,
      error_code: output.error && "code" in output.error ? output.error.code : null,
    },
  };
}

export function assistantMessageRecord(text: string, messageId: string, runId: string): MessageRecord {
  return { role: "assistant", content: text, metadata: { message_id: messageId, run_id: runId } };
}
