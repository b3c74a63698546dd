// What each calendar method answers, declared once: the handlers are typed by these schemas
// (defineMethod checks it), the data tests parse real answers with them, and the card compiler
// (agent/post-processing/ui-hints.ts) reads results through them.
import { z } from "zod";

export const EVENT_STATUSES = ["active", "archived", "cancelled"] as const;
export const Permission = z.enum(["view", "edit", "invite"]);
export const InvitationStatus = z.enum(["pending", "accepted", "rejected"]);

/** One event as a tool result shows it: times in the event's own zone, and the caller's access. */
export const EventView = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  start_at: z.string(),
  end_at: z.string().nullable(),
  timezone: z.string(),
  status: z.enum(EVENT_STATUSES),
  metadata: z.record(z.string(), z.unknown()),
  recurrence_rule: z.string().nullable(),
  /**
   * On one occurrence of a repeating event, in a day or range read: `start_at`/`end_at` are
   * the occurrence's, `id` is the series', and this is where the series began.
   */
  occurrence: z.object({ series_start_at: z.string() }).optional(),
  source_type: z.string(),
  /** "owner", or the permission granted to the caller through an accepted share. */
  access: z.enum(["owner", ...Permission.options]),
  owner_id: z.string(),
  /** For the owner: who the event is shared with. */
  shared_with: z.array(z.object({ user_id: z.string(), permission: Permission, status: InvitationStatus })).optional(),
  updated_at: z.string(),
});
export type EventView = z.infer<typeof EventView>;

const EventList = { items: z.array(EventView), count: z.int().min(0), truncated: z.boolean() };

export const CalendarReadResult = z.discriminatedUnion("mode", [
  z.object({ mode: z.literal("event"), event: EventView }),
  z.object({ mode: z.literal("day"), date: z.string(), timezone: z.string(), ...EventList }),
  z.object({ mode: z.literal("range"), start_at: z.string(), end_at: z.string(), ...EventList }),
]);

/** calendar.create */
export const CalendarCreateResult = z.object({ event: EventView });

export const CalendarUpdateResult = z.object({ event: EventView, changed_fields: z.array(z.string()) });

/** With `occurrence_start`, only that occurrence of a repeating event was removed; the series stays. */
export const CalendarDeleteResult = z.object({
  deleted: z.object({ id: z.string(), title: z.string(), occurrence_start: z.string().optional() }),
});

export const CalendarShareResult = z.object({
  invitation: z.object({
    id: z.string(),
    permission: Permission,
    status: InvitationStatus,
    created_at: z.string(),
    invitee_user_id: z.string(),
    /** How the invitee was found: the phone, e-mail or user id the caller gave. */
    matched_by: z.enum(["phone", "email", "user_id"]),
  }),
  /** A reduced event: the caller may not see its zone, status or access rules. */
  event: EventView.pick({ id: true, title: true, start_at: true, end_at: true }),
});

/** calendar.accept_invite and calendar.reject_invite; `event` after accepting, now visible. */
export const CalendarAnswerResult = z.object({
  invitation: z.object({ event_id: z.string(), permission: Permission, status: InvitationStatus, responded_at: z.string().nullable() }),
  event: EventView.optional(),
});

/**
 * calendar.invitations: the caller's pending invitations, soonest event first. The event is a
 * preview (the invitee may not read it before accepting): title, times in its zone, status.
 */
export const CalendarInvitationsResult = z.object({
  invitations: z.array(
    z.object({
      event: EventView.pick({ id: true, title: true, start_at: true, end_at: true, timezone: true, status: true, recurrence_rule: true }),
      permission: Permission,
      invited_at: z.string(),
      /** Who invited: the name in the caller's own contacts, if any, and the inviter's e-mail and phone. */
      inviter: z.object({ user_id: z.string(), name: z.string().nullable(), email: z.string().nullable(), phone: z.string().nullable() }),
    }),
  ),
  count: z.int().min(0),
  truncated: z.boolean(),
});
