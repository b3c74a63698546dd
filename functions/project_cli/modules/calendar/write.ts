// calendar.create / update / delete. Archiving is an update of patch.status.
import type { z } from "zod";
import type { CliContext } from "../../context.ts";
import { unwrap } from "../../database-errors.ts";
import { expand, parseRecurrence } from "../../recurrence.ts";
import { CliProblem } from "../../result.ts";
import { EVENT_COLUMNS, inZone, toEventView } from "./event-view.ts";
import { findEvent, notFound } from "./read.ts";
import type { CalendarCreateInput, CalendarDeleteInput, CalendarUpdateInput } from "./schemas.ts";

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
  if (input.occurrence_start) {
    throw new CliProblem("INVALID_ACTION_INPUT", "changing one occurrence of a repeating event is not supported", {
      missing_fields: [],
      invalid_fields: [{ field: "input.occurrence_start", problem: "an update always changes the whole series" }],
      alias_corrections: {},
      suggestion:
        "to change every occurrence, send the update without occurrence_start; to change only this one, remove it with calendar.delete {event_id, occurrence_start} and create a one-off event in its place",
    });
  }
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

export async function calendarDelete(input: z.output<typeof CalendarDeleteInput>, ctx: CliContext) {
  if (input.occurrence_start) return deleteOccurrence(input.event_id, input.occurrence_start, ctx);
  const rows = unwrap(await ctx.db.from("schedule_items").delete().eq("id", input.event_id).select("id, title"));
  if (rows.length === 0) {
    const problem = await explainNoChange(ctx, input.event_id, "only the owner deletes an event");
    if (problem.code === "FORBIDDEN") problem.details.suggestion = "to stop following a shared event, use calendar.reject_invite";
    throw problem;
  }
  return { deleted: { id: rows[0]!.id, title: rows[0]!.title } };
}

/** Removes one occurrence of a repeating event (an exception of the series); the series stays. */
async function deleteOccurrence(eventId: string, occurrenceStart: string, ctx: CliContext) {
  const event = await findEvent(ctx, eventId);
  if (!event) throw notFound(eventId);
  const parsed = parseRecurrence(event.recurrence_rule ?? "");
  const wanted = new Date(occurrenceStart);
  const isOccurrence =
    parsed.ok &&
    expand(
      parsed.rule,
      { start: new Date(event.start_at), durationMs: null, timeZone: event.timezone },
      {
        from: wanted,
        to: new Date(wanted.getTime() + 1),
        limit: 1,
      },
    ).length === 1;
  if (!isOccurrence) {
    throw new CliProblem(
      "INVALID_ACTION_INPUT",
      event.recurrence_rule ? "no occurrence of this event starts then" : "this event does not repeat",
      {
        missing_fields: [],
        invalid_fields: [
          {
            field: "input.occurrence_start",
            problem: event.recurrence_rule ? "is not when an occurrence starts" : "only repeating events have occurrences",
          },
        ],
        alias_corrections: {},
        suggestion: event.recurrence_rule
          ? "use the start_at that calendar.read gives the occurrence"
          : "leave out occurrence_start to delete the event",
      },
    );
  }
  const rows = unwrap(
    await ctx.db.rpc("skip_schedule_occurrence", { p_id: eventId, p_occurrence_start: wanted.toISOString() }).select("id, title"),
  );
  if (rows.length === 0) throw await explainNoChange(ctx, eventId, "removing an occurrence needs edit permission or ownership");
  return { deleted: { id: rows[0]!.id, title: rows[0]!.title, occurrence_start: inZone(wanted.toISOString(), event.timezone) } };
}
