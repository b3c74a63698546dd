// The history routes' contract: what they take (paths and queries, checked by the routes'
// validators) and what they answer (the types their handlers must return), one definition for
// both the code and the OpenAPI document.
import { z } from "zod";
import { offsetDatetime } from "../../project_cli/fields.ts";
import { HistoryMessage } from "../persistence/history-message.ts";
import { recordId } from "./record-id.ts";

export const ThreadIdParam = z.object({ threadId: recordId("the thread, as the runs named it") });

/** Paging of one thread: newest page first; `before` is a message position (metadata.seq). */
export const HistoryQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50).describe("messages per page"),
  before: z.coerce
    .number()
    .int()
    .positive()
    .optional()
    .describe("the next_before of the previous page: only messages at earlier positions"),
});

/** The deprecated form that names the thread in the query. */
export const HistoryByQuery = HistoryQuery.extend(ThreadIdParam.shape);

export const ThreadListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20).describe("threads per page"),
  // The tool's datetime rule: a year-0000 or +25:00 cursor is refused here, not by Postgres.
  before: offsetDatetime
    .optional()
    .meta({ format: "date-time", description: "the next_before of the previous page: only threads last active before it" }),
});

export const Thread = z
  .object({
    id: z.string(),
    title: z.string().nullable().describe("the first request of the thread"),
    created_at: z.string().meta({ format: "date-time" }),
    updated_at: z.string().meta({ format: "date-time" }).describe("when the thread last had a run"),
  })
  .meta({ id: "Thread" });

export const HistoryPage = z
  .object({
    thread: Thread,
    messages: z.array(HistoryMessage).describe("oldest first"),
    next_before: z.number().int().nullable().describe("the cursor (before=) of the older page, or null on the oldest"),
  })
  .meta({ id: "HistoryPage" });
export type HistoryPage = z.output<typeof HistoryPage>;

export const ThreadList = z
  .object({
    threads: z.array(Thread).describe("most recently active first"),
    next_before: z.string().nullable().describe("the cursor (before=) of the next page, or null on the last"),
  })
  .meta({ id: "ThreadList" });
export type ThreadList = z.output<typeof ThreadList>;
