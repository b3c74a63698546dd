// The runtime's RunRecorder port (runtime/run-recorder.ts) over the records: writes what a run
// did, through the user's own database client (RLS applies), in a bounded number of round
// trips: one at the start (which also returns the thread's earlier turns) and one at the end.
// Tool payloads go to object storage as they arrive; a storage failure only marks the message.
import type { PostgrestSingleResponse } from "@supabase/supabase-js";
import type { DatabaseClient } from "../../lib/supabase.ts";
import { truncateText } from "../../project_cli/fields.ts";
import type { IntentTurn } from "../runtime/intent.ts";
import type { RunRecorder } from "../runtime/run-recorder.ts";
import { inlineImages, type RunRequest, userText } from "../runtime/run-request.ts";
import { type ImageStore, imagePath } from "./image-store.ts";
import { type PayloadStore, payloadPath } from "./payload-store.ts";
import { recordingError } from "./record-errors.ts";
import { assistantMessageRecord, type MessageRecord, type ToolPayload, toolMessageRecord, userMessageMetadata } from "./records.ts";

/** How much of the thread the intent stage sees: the latest entries, each cut short. */
export const EARLIER_TURNS = { messages: 12, chars: 600 } as const;

export function createRunRecorder(options: {
  db: DatabaseClient;
  userId: string;
  request: RunRequest;
  models: Record<string, string>;
  payloads?: PayloadStore;
  images?: ImageStore;
}): RunRecorder {
  const { db, request } = options;
  // Records in stream order; a tool message waits for its payload write before it is final.
  const pending: Array<Promise<MessageRecord> | MessageRecord> = [];
  let lastAnswer: { messageId: string; record: MessageRecord } | undefined;
  let roundTrips = 0;
  // Finishing is only for a run this recorder started: when the start was refused (say the run
  // id is already recorded), the run under that id is another one and must stay as it is.
  let started = false;
  // Inline images go to storage beside the start record, and are waited for before the finish.
  let imageUploads: Promise<unknown> = Promise.resolve();

  const recorded = async <T>(fn: string, call: PromiseLike<PostgrestSingleResponse<T>>): Promise<T> => {
    roundTrips++;
    const response = await call;
    if (response.error) throw recordingError(fn, response.error, response.status);
    return response.data;
  };

  return {
    get roundTrips() {
      return roundTrips;
    },

    async start() {
      const { images } = options;
      if (images) {
        imageUploads = Promise.allSettled(
          inlineImages(request).flatMap(({ index, base64, mimeType }) => {
            const path = imagePath(options.userId, request.runId, index);
            return path ? [images.put(path, base64, mimeType)] : [];
          }),
        );
      }
      const earlier = await recorded(
        "record_run_start",
        db.rpc("record_run_start", {
          p_thread_id: request.threadId,
          p_run_id: request.runId,
          p_title: truncateText(userText(request), 200) || "(image)",
          p_models: options.models,
          p_user_content: userText(request),
          p_user_metadata: userMessageMetadata(request.attachments, request.userMessageId),
          p_earlier_limit: EARLIER_TURNS.messages,
        }),
      );
      started = true;
      return earlier.reverse().flatMap((row): IntentTurn[] => {
        const text = row.turn_content ?? "";
        if (text.trim() === "") return [];
        return [
          {
            role: row.turn_role === "user" ? "user" : "assistant",
            text: `${row.turn_role === "tool" ? "(tool) " : ""}${text}`.slice(0, EARLIER_TURNS.chars),
          },
        ];
      });
    },

    toolResult(info) {
      lastAnswer = undefined;
      const path = payloadPath(options.userId, request.runId, info.toolCallId, info.messageId);
      const storage = options.payloads && path ? { bucket: options.payloads.bucket, path } : undefined;
      const record = (stored: boolean) =>
        toolMessageRecord({
          runId: request.runId,
          messageId: info.messageId,
          toolCallId: info.toolCallId,
          processed: info.processed,
          storage: stored ? storage : undefined,
        });
      if (!options.payloads || !storage) {
        pending.push(record(false));
        return;
      }
      const payload: ToolPayload = {
        tool_call_id: info.toolCallId,
        tool_name: info.toolName,
        run_id: request.runId,
        content: info.content,
        args: info.args,
        tool_agent_output: info.processed.toolAgentOutput,
        recorded_at: new Date().toISOString(),
      };
      pending.push(
        options.payloads.put(storage.path, payload).then(
          () => record(true),
          () => record(false),
        ),
      );
    },

    text(messageId, delta) {
      if (lastAnswer?.messageId !== messageId) {
        lastAnswer = { messageId, record: assistantMessageRecord("", messageId, request.runId) };
        pending.push(lastAnswer.record);
      }
      lastAnswer.record.content += delta;
    },

    async finish(outcome) {
      if (!started) return;
      await imageUploads;
      const superseded = outcome.supersededFailures ?? new Set<string>();
      const messages = (await Promise.all(pending)).map((message) =>
        message.role === "tool" && superseded.has(String(message.metadata.message_id))
          ? { ...message, metadata: { ...message.metadata, failure_superseded: true } }
          : message,
      );
      await recorded(
        "record_run_finish",
        db.rpc("record_run_finish", {
          p_run_id: request.runId,
          p_status: outcome.status,
          p_error_code: outcome.errorCode ?? null,
          p_step_count: outcome.stepCount,
          p_usage: outcome.usage,
          p_stage_timings: outcome.stageTimings,
          p_messages: messages,
        }),
      );
    },
  };
}
