// Where a resumed stream starts: `?after=N` wins over `Last-Event-ID: N`; neither means from
// the beginning (-1). A cursor that is given but empty or blank is a client bug, refused
// rather than read as 0 (Number("") is 0, which would silently skip event 0).
import { z } from "zod";

export const EVENT_CURSOR_PROBLEM = "must be an event id: an integer >= -1";
export const EVENT_ID = /^(-1|0|[1-9][0-9]{0,15})$/;

/** An event id as a resume cursor. Digits only (and -1): Number() would also take " 7", "0x10", "1e3" and "". */
export const EventCursor = z
  .string()
  .regex(EVENT_ID, { error: EVENT_CURSOR_PROBLEM, abort: true })
  .refine((raw) => Number.isSafeInteger(Number(raw)), EVENT_CURSOR_PROBLEM)
  .describe("an event id (the SSE id: of an event): the stream resumes after it; -1 replays from the start");

export type ResumeCursor = { ok: true; after: number } | { ok: false; field: "after" | "Last-Event-ID" };

export function resumeCursor(query: string | undefined, header: string | undefined): ResumeCursor {
  const [raw, field] = query !== undefined ? [query, "after" as const] : [header, "Last-Event-ID" as const];
  if (raw === undefined) return { ok: true, after: -1 };
  return EventCursor.safeParse(raw).success ? { ok: true, after: Number(raw) } : { ok: false, field };
}
