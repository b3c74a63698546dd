// calendar.read: one day in a time zone, an explicit range, or one event by id.
import type { z } from "zod";
import type { CliContext } from "../../context.ts";
import { unwrap } from "../../database-errors.ts";
import { expand, type Occurrence, parseRecurrence } from "../../recurrence.ts";
import { CliProblem } from "../../result.ts";
import { dayBounds } from "../../time.ts";
import { type EventRow, type EventView, inZone, selectEvents, toEventView } from "./event-view.ts";
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

/** How many repeating series one read expands at most; more are reported as a truncated list. */
export const MAX_SERIES = 200;

/**
 * In one round trip, the rows a window needs: one-off events overlapping [start, end) (starting
 * before its end, and ending after its start, or with no end starting inside), and repeating
 * series that began before it ends (their occurrences may fall inside). By start; at most
 * `limit + MAX_SERIES + 2` rows, and a list that reaches that cap is reported as truncated.
 */
function rowsForWindow(ctx: CliContext, start: Date, end: Date, status: string, cap: number) {
  let query = selectEvents(ctx.db)
    .lt("start_at", end.toISOString())
    .or(`recurrence_rule.not.is.null,end_at.gt.${start.toISOString()},and(end_at.is.null,start_at.gte.${start.toISOString()})`)
    .order("start_at")
    .limit(cap);
  if (status !== "all") query = query.eq("status", status);
  return query;
}

/**
 * A series' occurrences inside the window, each as the series' view with its own times. A
 * stored rule outside the supported subset (rows can be written by other clients) is not
 * expanded: the event shows as its first occurrence, if that is inside the window.
 */
function occurrencesOf(row: EventRow, userId: string, start: Date, end: Date, limit: number): EventView[] {
  const view = toEventView(row, userId);
  const first = new Date(row.start_at);
  const durationMs = row.end_at ? Date.parse(row.end_at) - first.getTime() : null;
  const parsed = parseRecurrence(row.recurrence_rule ?? "");
  let occurrences: Occurrence[] | undefined;
  try {
    const exceptions = row.recurrence_exceptions.map((at) => Date.parse(at));
    if (parsed.ok)
      occurrences = expand(parsed.rule, { start: first, durationMs, timeZone: row.timezone, exceptions }, { from: start, to: end, limit });
  } catch {
    // A zone this runtime does not know: no expansion either.
  }
  if (!occurrences) {
    const overlaps = first < end && (durationMs === null ? first >= start : first.getTime() + durationMs > start.getTime());
    return overlaps ? [view] : [];
  }
  return occurrences.map((occurrence) => ({
    ...view,
    start_at: inZone(occurrence.start.toISOString(), row.timezone),
    end_at: occurrence.end ? inZone(occurrence.end.toISOString(), row.timezone) : null,
    occurrence: { series_start_at: view.start_at },
  }));
}

/** Events in [start, end): one-off events, and every occurrence of repeating ones, by start. */
async function listOverlapping(ctx: CliContext, start: Date, end: Date, status: string, limit: number) {
  const cap = limit + MAX_SERIES + 2;
  const rows = unwrap(await rowsForWindow(ctx, start, end, status, cap));
  const singleRows = rows.filter((row) => row.recurrence_rule === null);
  const seriesRows = rows.filter((row) => row.recurrence_rule !== null);
  const all = [
    ...singleRows.slice(0, limit).map((row) => toEventView(row, ctx.userId)),
    ...seriesRows.slice(0, MAX_SERIES).flatMap((row) => occurrencesOf(row, ctx.userId, start, end, limit + 1)),
  ].sort((a, b) => Date.parse(a.start_at) - Date.parse(b.start_at));
  const items = all.slice(0, limit);
  const truncated = rows.length >= cap || singleRows.length > limit || seriesRows.length > MAX_SERIES || all.length > limit;
  return { items, count: items.length, truncated };
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
