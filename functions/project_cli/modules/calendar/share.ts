// calendar.share / accept_invite / reject_invite, on schedule_subscriptions.
import type { z } from "zod";
import type { CliContext } from "../../context.ts";
import { problemFrom, unwrap } from "../../database-errors.ts";
import { CliProblem } from "../../result.ts";
import { invitationStatusOf, permissionOf } from "./event-view.ts";
import { findEvent, notFound } from "./read.ts";
import type { CalendarAnswerResult, CalendarShareResult } from "./results.ts";
import type { CalendarEventRef, CalendarShareInput } from "./schemas.ts";

type ShareInput = z.output<typeof CalendarShareInput>;
type ShareResult = z.output<typeof CalendarShareResult>;
type AnswerResult = z.output<typeof CalendarAnswerResult>;

/** The highest level the booleans grant (levels are ordered view < edit < invite). */
export function permissionLevel(permissions: ShareInput["permissions"]): "view" | "edit" | "invite" {
  return permissions.invite ? "invite" : permissions.edit ? "edit" : "view";
}

async function resolveInvitee(
  ctx: CliContext,
  invitee: ShareInput["invitee"],
): Promise<{ userId: string; matchedBy: ShareResult["invitation"]["matched_by"] }> {
  if (invitee.user_id) return { userId: invitee.user_id, matchedBy: "user_id" };
  const matchedBy = invitee.phone ? "phone" : "email";
  const userId = unwrap(await ctx.db.rpc("find_invitee", { p_phone: invitee.phone ?? null, p_email: invitee.email ?? null }));
  if (!userId) {
    throw new CliProblem("NOT_FOUND", `nobody with that ${matchedBy} uses the app, so they cannot be invited yet`, {
      suggestion: "check the number or address with contacts.read, or ask the user for another way to reach them",
    });
  }
  return { userId, matchedBy };
}

export async function calendarShare(input: ShareInput, ctx: CliContext) {
  const event = await findEvent(ctx, input.event_id);
  if (!event) throw notFound(input.event_id);
  const invitee = await resolveInvitee(ctx, input.invitee);
  if (invitee.userId === ctx.userId) {
    throw new CliProblem("INVALID_ACTION_INPUT", "you cannot invite yourself", {
      missing_fields: [],
      invalid_fields: [{ field: "input.invitee", problem: "is the calling user" }],
      alias_corrections: {},
    });
  }
  if (invitee.userId === event.owner_id) throw new CliProblem("CONFLICT", "that person owns this event already");

  const permission = permissionLevel(input.permissions);
  const response = await ctx.db
    .from("schedule_subscriptions")
    .insert({ item_id: input.event_id, subscriber_id: invitee.userId, invited_by: ctx.userId, permission })
    .select("id, permission, status, created_at")
    .single();
  if (response.error) {
    if (response.error.code === "42501") {
      throw new CliProblem("FORBIDDEN", `your access to this event is "${event.access}"; sharing needs ownership or invite permission`, {
        access: event.access,
      });
    }
    if (response.error.code === "23505") throw new CliProblem("CONFLICT", "this person has already been invited to this event");
    throw problemFrom(response.error, response.status);
  }
  const { id, permission: granted, status, created_at } = response.data;
  return {
    invitation: {
      id,
      permission: permissionOf(granted),
      status: invitationStatusOf(status),
      created_at,
      invitee_user_id: invitee.userId,
      matched_by: invitee.matchedBy,
    },
    event: { id: event.id, title: event.title, start_at: event.start_at, end_at: event.end_at },
  };
}

async function answerInvitation(
  input: z.output<typeof CalendarEventRef>,
  ctx: CliContext,
  status: "accepted" | "rejected",
): Promise<AnswerResult> {
  const response = await ctx.db
    .from("schedule_subscriptions")
    .update({ status })
    .eq("item_id", input.event_id)
    .eq("subscriber_id", ctx.userId)
    .select("permission, status, responded_at");
  if (response.error?.code === "22023") {
    throw new CliProblem("CONFLICT", "this invitation was already declined; ask the owner to invite you again");
  }
  const [row] = unwrap(response);
  if (!row) {
    throw new CliProblem("NOT_FOUND", `you have no invitation for event ${input.event_id}`, {
      suggestion: "invitations are answered by the invited person, with the event_id of the shared event",
    });
  }
  return {
    invitation: {
      event_id: input.event_id,
      permission: permissionOf(row.permission),
      status: invitationStatusOf(row.status),
      responded_at: row.responded_at,
    },
  };
}

export async function calendarAcceptInvite(input: z.output<typeof CalendarEventRef>, ctx: CliContext): Promise<AnswerResult> {
  const answer = await answerInvitation(input, ctx, "accepted");
  const event = await findEvent(ctx, input.event_id);
  return { ...answer, ...(event ? { event } : {}) };
}

export function calendarRejectInvite(input: z.output<typeof CalendarEventRef>, ctx: CliContext) {
  return answerInvitation(input, ctx, "rejected");
}
