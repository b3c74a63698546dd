// calendar.read: one day in a time zone, an explicit range, or one event by id.
import type { z } from "zod";
import type { CliContext } from "../../context.ts";
import { unwrap } from "../../database-errors.ts";
import { CliProblem } from "../../result.ts";
import { dayBounds } from "../../time.ts";
import { type EventView, selectEvents, toEventView } from "./event-view.ts";
import type { CalendarReadResult } from "./results.ts";
import type { CalendarReadInput } from "./schemas.ts";

type ReadInput = z.output<typeof CalendarReadInput>;

export async function findEvent(ctx: CliContext, eventId: string): Promise<EventView | undefined> {
  const [row] = unwrap(await selectEvents(ctx.db).eq("id", eventId).limit(1));
  return row ? toEventView(row, ctx.userId) : undefined;
}

export function notFound(eventId: string): CliProblem {
  return new CliProblem("NOT_FOUND", `no event ${eventId} is visible to you`, {
    suggestion: 'list events with {"mode":"day"} or {"mode":"range"} to find the right event_id',
  });
}

/** Events overlapping [start, end): starting before end, and ending after start (or, with no end, starting inside). */
async function listOverlapping(ctx: CliContext, start: Date, end: Date, status: string, limit: number) {
  let query = selectEvents(ctx.db)
    .lt("start_at", end.toISOString())
    .or(`end_at.gt.${start.toISOString()},and(end_at.is.null,start_at.gte.${start.toISOString()})`)
    .order("start_at")
    .limit(limit + 1);
  if (status !== "all") query = query.eq("status", status);
  const rows = unwrap(await query);
  const items = rows.slice(0, limit).map((row) => toEventView(row, ctx.userId));
  return { items, count: items.length, truncated: rows.length > limit };
}

export async function calendarRead(input: ReadInput, ctx: CliContext): Promise<z.output<typeof CalendarReadResult>> {
  switch (input.mode) {
    case "event": {
      const event = await findEvent(ctx, input.event_id);
      if (!event) throw notFound(input.event_id);
      return { mode: "event", event };
    }
    case "day": {
      const { start, end } = dayBounds(input.date, input.timezone);
      const list = await listOverlapping(ctx, start, end, input.status, input.limit);
      return { mode: "day", date: input.date, timezone: input.timezone, ...list };
    }
    case "range": {
      const list = await listOverlapping(ctx, new Date(input.start_at), new Date(input.end_at), input.status, input.limit);
      return { mode: "range", start_at: input.start_at, end_at: input.end_at, ...list };
    }
  }
}
