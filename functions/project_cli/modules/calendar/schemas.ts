// Input schemas of the calendar methods. Strict: an unknown key is an
// error, never silently dropped.
import { z } from "zod";
import { email, ianaTimezone, isoDate, millis, offsetDatetime, phone, storableString, text, uuid } from "../../fields.ts";
import { parseRecurrence } from "../../recurrence.ts";

export const MAX_RANGE_DAYS = 92;
export const MAX_LIST_ITEMS = 200;

const eventId = uuid("event_id");

const endAfterStart = (value: { start_at?: string | null | undefined; end_at?: string | null | undefined }) =>
  !value.start_at || !value.end_at || millis(value.end_at) > millis(value.start_at);
const endAfterStartIssue = { error: "end_at must be after start_at", path: ["end_at"] };

export const EventMetadata = z.strictObject({
  location: text(200).optional(),
  reminder_minutes: z.int().min(0).max(40_320, { error: "at most 40320 (four weeks)" }).optional(),
  color: text(32).optional(),
  notes: text(2000).optional(),
});

/** In a patch, metadata is merged into the event's: the keys given change, null removes one, the rest stay. */
const EventMetadataPatch = z.strictObject({
  location: EventMetadata.shape.location.unwrap().nullable().optional(),
  reminder_minutes: EventMetadata.shape.reminder_minutes.unwrap().nullable().optional(),
  color: EventMetadata.shape.color.unwrap().nullable().optional(),
  notes: EventMetadata.shape.notes.unwrap().nullable().optional(),
});

const listStatus = z.enum(["active", "archived", "cancelled", "all"]).default("active");
const limit = z.int().min(1).max(MAX_LIST_ITEMS).default(100);

export const CalendarReadDay = z.strictObject({
  mode: z.literal("day"),
  date: isoDate,
  timezone: ianaTimezone,
  status: listStatus,
  limit,
});

export const CalendarReadRange = z
  .strictObject({
    mode: z.literal("range"),
    start_at: offsetDatetime,
    end_at: offsetDatetime,
    status: listStatus,
    limit,
  })
  .refine(endAfterStart, endAfterStartIssue)
  .refine((value) => millis(value.end_at) - millis(value.start_at) <= MAX_RANGE_DAYS * 86_400_000, {
    error: `a range may span at most ${MAX_RANGE_DAYS} days; split longer periods`,
    path: ["end_at"],
  });

export const CalendarReadEvent = z.strictObject({ mode: z.literal("event"), event_id: eventId });

export const CalendarReadInput = z.discriminatedUnion("mode", [CalendarReadDay, CalendarReadRange, CalendarReadEvent], {
  error: 'mode must be "day", "range" or "event"',
});

/** An RRULE in the supported subset (functions/project_cli/recurrence.ts); a refusal names what is supported. */
const recurrenceRule = storableString()
  .max(500)
  .superRefine((value, ctx) => {
    const parsed = parseRecurrence(value);
    if (!parsed.ok) ctx.addIssue({ code: "custom", message: `${parsed.problem}; e.g. FREQ=WEEKLY;BYDAY=MO` });
  });

export const CalendarCreateInput = z
  .strictObject({
    title: text(200),
    start_at: offsetDatetime,
    end_at: offsetDatetime.optional(),
    timezone: ianaTimezone,
    description: text(5000).optional(),
    metadata: EventMetadata.optional(),
    recurrence_rule: recurrenceRule.optional(),
  })
  .refine(endAfterStart, endAfterStartIssue);

export const CalendarPatch = z
  .strictObject({
    title: text(200).optional(),
    description: text(5000).nullable().optional(),
    start_at: offsetDatetime.optional(),
    end_at: offsetDatetime.nullable().optional(),
    timezone: ianaTimezone.optional(),
    metadata: EventMetadataPatch.optional(),
    recurrence_rule: recurrenceRule.nullable().optional(),
    status: z.enum(["active", "archived", "cancelled"]).optional(),
  })
  .refine((patch) => Object.keys(patch).length > 0, { error: "patch must change at least one field" })
  .refine(endAfterStart, endAfterStartIssue);

/** One occurrence of a repeating event: the start_at calendar.read gave it. */
const occurrenceStart = offsetDatetime;

export const CalendarUpdateInput = z.strictObject({
  event_id: eventId,
  occurrence_start: occurrenceStart.optional(),
  patch: CalendarPatch,
});

export const CalendarEventRef = z.strictObject({ event_id: eventId });

/** Without occurrence_start the whole event (every occurrence); with it, that occurrence only. */
export const CalendarDeleteInput = z.strictObject({ event_id: eventId, occurrence_start: occurrenceStart.optional() });

export const MAX_INVITATIONS = 50;

/** calendar.invitations: the caller's pending invitations; nothing to say but how many. */
export const CalendarInvitationsInput = z.strictObject({ limit: z.int().min(1).max(MAX_INVITATIONS).default(20) });

const Invitee = z
  .strictObject({ phone: phone.optional(), email: email.optional(), user_id: uuid("invitee.user_id").optional() })
  .refine((invitee) => [invitee.phone, invitee.email, invitee.user_id].filter(Boolean).length === 1, {
    error: "give exactly one of invitee.phone, invitee.email or invitee.user_id",
  });

/** Permission levels are ordered: edit includes view, invite includes edit. */
export const SharePermissions = z
  .strictObject({ view: z.boolean(), edit: z.boolean().default(false), invite: z.boolean().default(false) })
  .refine((p) => p.view, { error: "permissions.view must be true: every share includes viewing", path: ["view"] })
  .refine((p) => !p.invite || p.edit, {
    error: "permissions.invite requires edit: true (levels are view < edit < invite)",
    path: ["edit"],
  });

export const CalendarShareInput = z.strictObject({ event_id: eventId, invitee: Invitee, permissions: SharePermissions });

export type CalendarShare = z.infer<typeof CalendarShareInput>;
