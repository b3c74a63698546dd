// History and threads, read through the user's own database client (RLS applies: another
// user's thread id answers exactly like one that does not exist).
//   GET /api/v1/agent/threads/{threadId}/history
//       (deprecated aliases, same answer: /api/v1/agent/runs/{threadId}/history, /api/v1/agent/history?threadId=...)
//   GET /api/v1/agent/threads
// Paths and queries are checked by the schemas in history-schemas.ts, which also document them.
// Pagination: `limit` (1..100, default 50) and `before`, a cursor returned as `next_before`: a
// message's position in its thread (1, 2, 3, ...), which counts this thread's messages only.
// Database refusals map to stable codes (persistence/record-errors.ts): a 4xx for a value the
// records refuse, 503 only when the records cannot be reached.

import type { Context } from "hono";
import { Hono } from "hono/tiny";
import { describeRoute } from "hono-openapi";
import type { z } from "zod";
import { errorBody } from "../../lib/errors.ts";
import { createUserDatabase } from "../../lib/user-database.ts";
import type { AppEnv } from "../app-env.ts";
import { API_ERRORS, BEARER, errorResponses, jsonContent, validated } from "../openapi.ts";
import { toHistoryMessages } from "../persistence/history.ts";
import { r2PayloadStore } from "../persistence/payload-store.ts";
import { classifyRecordFailure, type DatabaseFailure, RECORD_PROBLEMS } from "../persistence/record-errors.ts";
import { HistoryByQuery, HistoryPage, HistoryQuery, ThreadIdParam, ThreadList, ThreadListQuery } from "./history-schemas.ts";

function refused(c: Context<AppEnv>, error: DatabaseFailure, status: number, what: string) {
  const code = classifyRecordFailure(error, status);
  const meaning = RECORD_PROBLEMS[code];
  if (meaning.retryable)
    return c.json(errorBody("UPSTREAM_UNAVAILABLE", `${what} could not be read; retry shortly`, { retryable: true }), 503);
  return c.json(
    errorBody(
      meaning.errorCode,
      meaning.errorCode === "INVALID_REQUEST" ? `${what} cannot be read with these parameters` : meaning.message,
    ),
    meaning.httpStatus,
  );
}

async function history(c: Context<AppEnv>, threadId: string, { limit, before }: z.output<typeof HistoryQuery>) {
  const db = await createUserDatabase(c.var.settings, c.var.user.userId);

  const thread = await db.from("threads").select("id, title, created_at, updated_at").eq("id", threadId).maybeSingle();
  if (thread.error) return refused(c, thread.error, thread.status, "history");
  if (!thread.data) return c.json(errorBody("NOT_FOUND", "no such thread"), 404);

  let query = db
    .from("messages")
    .select("id, position, run_id, role, content, metadata, created_at")
    .eq("thread_id", threadId)
    .order("position", { ascending: false })
    .limit(limit + 1);
  if (before !== undefined) query = query.lt("position", before);
  const rows = await query;
  if (rows.error) return refused(c, rows.error, rows.status, "history");

  const oldestFirst = rows.data.slice(0, limit).reverse();
  const more = rows.data.length > limit;
  const messages = await toHistoryMessages(
    oldestFirst,
    c.var.user.userId,
    c.env.PAYLOADS ? r2PayloadStore(c.env.PAYLOADS, { timeoutMs: c.var.settings.dataPlane.timeoutMs }) : undefined,
  );
  const page: HistoryPage = { thread: thread.data, messages, next_before: more ? oldestFirst[0]!.position : null };
  return c.json(page, 200);
}

const historyDoc = (deprecated: boolean) =>
  describeRoute({
    summary: deprecated
      ? "A thread's messages (deprecated: use /api/v1/agent/threads/{threadId}/history)"
      : "A thread's messages, with their cards, a page at a time",
    description: deprecated
      ? "The same answer as GET /api/v1/agent/threads/{threadId}/history, kept for clients written before it."
      : "AG-UI messages with the ids the live stream used; tool messages carry the card (ui_schema) TOOL_CALL_RESULT carried. Another user's thread answers exactly like one that does not exist.",
    ...(deprecated ? { deprecated } : {}),
    security: BEARER,
    responses: {
      200: { description: "one page of the thread, oldest message first", content: jsonContent(HistoryPage) },
      ...errorResponses({ 404: "NOT_FOUND: no such thread (or not the caller's)" }),
      ...API_ERRORS,
    },
  });

const threadsDoc = describeRoute({
  summary: "The caller's threads, most recently active first",
  security: BEARER,
  responses: { 200: { description: "one page of threads", content: jsonContent(ThreadList) }, ...API_ERRORS },
});

export const historyRoutes = new Hono<AppEnv>()
  .get(
    "/api/v1/agent/threads/:threadId/history",
    historyDoc(false),
    validated("param", ThreadIdParam),
    validated("query", HistoryQuery),
    (c) => history(c, c.req.valid("param").threadId, c.req.valid("query")),
  )
  .get("/api/v1/agent/runs/:threadId/history", historyDoc(true), validated("param", ThreadIdParam), validated("query", HistoryQuery), (c) =>
    history(c, c.req.valid("param").threadId, c.req.valid("query")),
  )
  .get("/api/v1/agent/history", historyDoc(true), validated("query", HistoryByQuery), (c) => {
    const { threadId, ...page } = c.req.valid("query");
    return history(c, threadId, page);
  })
  .get("/api/v1/agent/threads", threadsDoc, validated("query", ThreadListQuery), async (c) => {
    const { limit, before } = c.req.valid("query");
    const db = await createUserDatabase(c.var.settings, c.var.user.userId);
    let query = db
      .from("threads")
      .select("id, title, created_at, updated_at")
      .order("updated_at", { ascending: false })
      .limit(limit + 1);
    if (before) query = query.lt("updated_at", before);
    const rows = await query;
    if (rows.error) return refused(c, rows.error, rows.status, "threads");
    const threads = rows.data.slice(0, limit);
    const page: ThreadList = { threads, next_before: rows.data.length > limit ? threads.at(-1)!.updated_at : null };
    return c.json(page, 200);
  });
