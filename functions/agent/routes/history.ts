// History and threads, read through the user's own database client (RLS applies: another
// user's thread id answers exactly like one that does not exist).
//   GET /api/v1/agent/runs/{threadId}/history   and   GET /api/v1/agent/history?threadId=...
//   GET /api/v1/agent/threads
// Pagination: `limit` (1..100, default 50) and `before`, a cursor returned as `next_before`: a
// message's position in its thread (1, 2, 3, ...), which counts this thread's messages only.
// Database refusals map to stable codes (persistence/record-errors.ts): a 4xx for a value the
// records refuse, 503 only when the records cannot be reached.

import type { Context } from "hono";
import { Hono } from "hono";
import { z } from "zod";
import { errorBody } from "../../lib/errors.ts";
import { createUserDatabase } from "../../lib/user-database.ts";
import { offsetDatetime } from "../../project_cli/fields.ts";
import type { AppEnv } from "../app-env.ts";
import { toHistoryMessages } from "../persistence/history.ts";
import { r2PayloadStore } from "../persistence/payload-store.ts";
import { classifyRecordFailure, type DatabaseFailure, RECORD_PROBLEMS } from "../persistence/record-errors.ts";
import { idProblem } from "../runtime/run-request.ts";

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

const Page = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  before: z.coerce.number().int().positive().optional(),
});

const ThreadPage = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  // The tool's datetime rule: a year-0000 or +25:00 cursor is refused here, not by Postgres.
  before: offsetDatetime.optional(),
});

async function history(c: Context<AppEnv>, threadId: string | undefined) {
  if (!threadId || idProblem(threadId))
    return c.json(
      errorBody("INVALID_REQUEST", "threadId is required (1 to 128 characters Postgres can store)", { field: "threadId" }),
      400,
    );
  const page = Page.safeParse(c.req.query());
  if (!page.success) return c.json(errorBody("INVALID_REQUEST", "limit must be 1..100 and before a positive integer cursor"), 400);
  const { limit, before } = page.data;
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
  return c.json({ thread: thread.data, messages, next_before: more ? oldestFirst[0]!.position : null });
}

export const historyRoutes = new Hono<AppEnv>()
  .get("/api/v1/agent/runs/:threadId/history", (c) => history(c, c.req.param("threadId")))
  .get("/api/v1/agent/history", (c) => history(c, c.req.query("threadId")))
  .get("/api/v1/agent/threads", async (c) => {
    const page = ThreadPage.safeParse(c.req.query());
    if (!page.success) return c.json(errorBody("INVALID_REQUEST", "limit must be 1..100 and before an ISO datetime"), 400);
    const db = await createUserDatabase(c.var.settings, c.var.user.userId);
    let query = db
      .from("threads")
      .select("id, title, created_at, updated_at")
      .order("updated_at", { ascending: false })
      .limit(page.data.limit + 1);
    if (page.data.before) query = query.lt("updated_at", page.data.before);
    const rows = await query;
    if (rows.error) return refused(c, rows.error, rows.status, "threads");
    const threads = rows.data.slice(0, page.data.limit);
    return c.json({ threads, next_before: rows.data.length > page.data.limit ? threads.at(-1)!.updated_at : null });
  });
