// calendar.create / update / delete. Archiving is an update of patch.status.
import type { z } from "zod";
import type { CliContext } from "../../context.ts";
import { unwrap } from "../../database-errors.ts";
import { CliProblem } from "../../result.ts";
import { EVENT_COLUMNS, toEventView } from "./event-view.ts";
import { findEvent, notFound } from "./read.ts";
import type { CalendarCreateInput, CalendarEventRef, CalendarUpdateInput } from "./schemas.ts";

export async function calendarCreate(input: z.output<typeof CalendarCreateInput>, ctx: CliContext) {
  const row = unwrap(
    await ctx.db
      .from("schedule_items")
      .insert({
        owner_id: ctx.userId,
        title: input.title,
        description: input.description ?? null,
        start_at: input.start_at,
        end_at: input.end_at ?? null,
        timezone: input.timezone,
        metadata: input.metadata ?? {},
        recurrence_rule: input.recurrence_rule ?? null,
        source_type: "agent",
      })
      .select(EVENT_COLUMNS)
      .single(),
  );
  return { event: toEventView(row, ctx.userId) };
}

/** After an update or delete touched nothing: was the event invisible, or just not ours to change? */
async function explainNoChange(ctx: CliContext, eventId: string, needed: string): Promise<CliProblem> {
  const event = await findEvent(ctx, eventId);
  if (!event) return notFound(eventId);
  return new CliProblem("FORBIDDEN", `your access to this event is "${event.access}"; ${needed}`, { access: event.access });
}

/**
 * Applies the patch in one statement (public.update_schedule_item): metadata is merged key by
 * key (null removes a key), and a start moved without an end keeps the event's duration.
 */
export async function calendarUpdate(input: z.output<typeof CalendarUpdateInput>, ctx: CliContext) {
  const response = await ctx.db.rpc("update_schedule_item", { p_id: input.event_id, p_patch: input.patch }).select(EVENT_COLUMNS);
  if (response.error?.code === "23514") {
    throw new CliProblem("INVALID_ACTION_INPUT", "end_at must be after start_at (compare with the event's current times)", {
      missing_fields: [],
      invalid_fields: [{ field: "input.patch.end_at", problem: "must be after the event's start_at" }],
      alias_corrections: {},
    });
  }
  const rows = unwrap(response);
  if (rows.length === 0) throw await explainNoChange(ctx, input.event_id, "changing it needs edit permission or ownership");
  const changed = Object.keys(input.patch);
  // The end moved with the start to keep the duration: say so.
  if (input.patch.start_at && !("end_at" in input.patch) && rows[0]!.end_at) changed.push("end_at");
  return { event: toEventView(rows[0]!, ctx.userId), changed_fields: changed };
}

export async function calendarDelete(input: z.output<typeof CalendarEventRef>, ctx: CliContext) {
  const rows = unwrap(await ctx.db.from("schedule_items").delete().eq("id", input.event_id).select("id, title"));
  if (rows.length === 0) {
    const problem = await explainNoChange(ctx, input.event_id, "only the owner deletes an event");
    if (problem.code === "FORBIDDEN") problem.details.suggestion = "to stop following a shared event, use calendar.reject_invite";
    throw problem;
  }
  return { deleted: { id: rows[0]!.id, title: rows[0]!.title } };
}
