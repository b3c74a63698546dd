// One message of a thread's history, as the history routes answer it: an AG-UI message (the
// same id the live stream used) with our metadata. The schema is what toHistoryMessages builds
// (its return type comes from here, so the two cannot drift) and what the OpenAPI document
// shows. A few metadata values are copied from the stored row as they are: rows are the user's
// own and could have been shaped through PostgREST, so the schema claims no more than that.
import { z } from "zod";
import { UiSchema } from "../post-processing/index.ts";

const Place = {
  run_id: z.string().nullable().describe("the run that wrote the message"),
  seq: z.number().int().positive().describe("the message's position in its thread (1, 2, 3, ...); the paging cursor"),
};

const UserMessage = z.object({
  id: z.string(),
  role: z.literal("user"),
  content: z.string(),
  metadata: z.object({
    attachments: z
      .unknown()
      .describe(
        "as recorded with the message: [{type: 'image', mimeType?, url?, inlineBytes?}], never the image data; an inline image's url is this API's image route",
      ),
    ...Place,
  }),
});

const ToolCall = z.object({
  id: z.string(),
  type: z.literal("function"),
  function: z.object({ name: z.string(), arguments: z.string().describe("the call's arguments as JSON; {} when its payload is gone") }),
});

const AssistantMessage = z
  .object({
    id: z.string(),
    role: z.literal("assistant"),
    content: z.string().optional().describe("the answer; absent on a tool call's message"),
    toolCalls: z.array(ToolCall).optional().describe("the tool call this message made"),
    metadata: z.object(Place),
  })
  .describe("an answer, or the tool call that precedes each tool message");

const ToolMessage = z.object({
  id: z.string(),
  role: z.literal("tool"),
  toolCallId: z.string(),
  content: z.string().describe("the tool result as JSON, exactly as TOOL_CALL_RESULT carried it; the summary when the payload is gone"),
  metadata: z.object({
    tool_name: z.string(),
    status: z.unknown().describe("as recorded: success | failure | partial"),
    summary: z.string(),
    summary_version: z.unknown().describe("as recorded: the version of the summary rules"),
    ui_schema: UiSchema.nullable().describe("the card, compiled again from the stored hints; null when they are not a known shape"),
    payload_available: z.boolean().describe("false when the stored payload could not be read (content is then the summary)"),
    ...Place,
  }),
});

export const HistoryMessage = z.discriminatedUnion("role", [UserMessage, AssistantMessage, ToolMessage]).meta({ id: "HistoryMessage" });
export type HistoryMessage = z.output<typeof HistoryMessage>;
