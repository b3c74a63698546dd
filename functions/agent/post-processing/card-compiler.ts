// ui_schema: the wire format the app renders. A card is a title, an optional subtitle and a
// list of generic blocks, so the app needs one renderer per block type, not one per action.
// compileCard is a pure function of the hints (no clock, no locale, no randomness): the
// same hints always give the same card, which is how history replay rebuilds it exactly.
// Changing what a given hints value compiles to, or the block shapes, means a new
// UI_SCHEMA_VERSION. Documented in docs/tool-cards.md.
import { z } from "zod";
import { type EventHint, type UiHints, UiHints as UiHintsSchema } from "./ui-hints.ts";

// 2: action_failed cards speak to the person (FAILURE_TEXT), not in the tool's words; event
// blocks say when an event repeats; event_deleted can be one occurrence.
export const UI_SCHEMA_VERSION = 2;

const EventBlock = z.strictObject({
  type: z.literal("event"),
  id: z.string(),
  title: z.string(),
  start_at: z.string(),
  end_at: z.string().nullable(),
  // Absent only where the tool did not return them (the event echoed by calendar.share).
  timezone: z.string().optional(),
  status: z.string().optional(),
  access: z.string().optional(),
  location: z.string().optional(),
  /** The event repeats; its times here are one occurrence's. */
  repeats: z.literal(true).optional(),
});

const ContactBlock = z.strictObject({
  type: z.literal("contact"),
  id: z.string(),
  name: z.string(),
  phone: z.string().optional(),
  email: z.string().optional(),
});

const FieldsBlock = z.strictObject({
  type: z.literal("fields"),
  items: z.array(z.strictObject({ label: z.string().min(1), value: z.string() })).min(1),
});

const NoticeBlock = z.strictObject({
  type: z.literal("notice"),
  tone: z.enum(["info", "success", "warning", "error"]),
  text: z.string().min(1),
});

export const Block = z.discriminatedUnion("type", [EventBlock, ContactBlock, FieldsBlock, NoticeBlock]);
export type Block = z.infer<typeof Block>;
export type BlockType = Block["type"];

export const UiSchema = z.strictObject({
  schema_version: z.literal(UI_SCHEMA_VERSION),
  /** Which card this is: the ui_hints kind it was compiled from. */
  card: z.enum(UiHintsSchema.options.map((option) => option.shape.kind.value) as [UiHints["kind"], ...UiHints["kind"][]]),
  title: z.string().min(1),
  subtitle: z.string().min(1).optional(),
  blocks: z.array(Block),
});
export type UiSchema = z.infer<typeof UiSchema>;

// English labels. Raw names the tool uses stay in the hints; the card says what a person reads.
const CHANGED_FIELD_LABELS: Readonly<Record<string, string>> = {
  title: "title",
  description: "description",
  start_at: "start time",
  end_at: "end time",
  timezone: "time zone",
  metadata: "details",
  recurrence_rule: "repeat rule",
  status: "status",
};
const PERMISSION_LABELS = { view: "Can view", edit: "Can edit", invite: "Can edit and invite" } as const;
const INVITATION_LABELS = { pending: "Pending", accepted: "Accepted", rejected: "Declined" } as const;
const MEMORY_TITLES = { user_memory: "Memory updated", work_profile: "Work profile updated" } as const;
const MATCHED_BY_LABELS = { phone: "Phone", email: "Email", user_id: "User ID" } as const;
const FAILED_TITLES: Readonly<Record<Extract<UiHints, { kind: "action_failed" }>["action"], string>> = {
  "calendar.read": "Could not read the calendar",
  "calendar.create": "Could not create the event",
  "calendar.update": "Could not update the event",
  "calendar.delete": "Could not delete the event",
  "calendar.share": "Could not share the event",
  "calendar.invitations": "Could not list invitations",
  "calendar.accept_invite": "Could not accept the invitation",
  "calendar.reject_invite": "Could not decline the invitation",
  "contacts.read": "Could not read contacts",
  "memory.update": "Could not update memory",
};

/**
 * What a person reads when an action ended failed. The tool's own message and suggestion are
 * written for the model (field names, method names) and stay in the hints, for the record.
 */
const FAILURE_TEXT: Readonly<Record<string, string>> = {
  INVALID_ENVELOPE: "The request could not be completed as asked, so nothing was changed.",
  UNKNOWN_METHOD: "The request could not be completed as asked, so nothing was changed.",
  METHOD_NOT_ALLOWED: "This assistant is not allowed to do that here, so nothing was changed.",
  INVALID_ACTION_INPUT: "The request could not be completed as asked, so nothing was changed.",
  NOT_FOUND: "It could not be found. It may have been deleted, or it is not shared with you.",
  FORBIDDEN: "You do not have permission to do this. The event's owner can change that.",
  CONFLICT: "This clashes with how things stand now, for example someone who was already invited, so nothing was changed.",
  UNAUTHENTICATED: "Your session has ended. Please sign in again.",
  UPSTREAM_UNAVAILABLE: "Your data cannot be reached right now. Please try again in a moment.",
  INTERNAL: "Something went wrong on our side, so nothing was changed.",
};
const failureText = (code: string) => (Object.hasOwn(FAILURE_TEXT, code) ? FAILURE_TEXT[code]! : FAILURE_TEXT.INTERNAL!);

const plural = (count: number, one: string, many: string) => (count === 0 ? `No ${many}` : `${count} ${count === 1 ? one : many}`);
const humanize = (name: string) => name.replace(/_/g, " ");
/** The calendar date of an offset datetime, as written (its local date, not UTC). */
const datePart = (datetime: string) => /^\d{4}-\d{2}-\d{2}/.exec(datetime)?.[0] ?? datetime;

function eventBlock(event: EventHint): Block {
  return {
    type: "event",
    id: event.id,
    title: event.title,
    start_at: event.start_at,
    end_at: event.end_at,
    timezone: event.timezone,
    status: event.status,
    access: event.access,
    ...(event.location !== undefined ? { location: event.location } : {}),
    ...(event.repeats ? { repeats: true as const } : {}),
  };
}

const notice = (tone: "info" | "success" | "warning" | "error", text: string): Block => ({ type: "notice", tone, text });
const fields = (items: Array<{ label: string; value: string }>): Block => ({ type: "fields", items });
const card = (kind: UiHints["kind"], title: string, subtitle: string | undefined, blocks: Block[]): UiSchema => ({
  schema_version: UI_SCHEMA_VERSION,
  card: kind,
  title,
  ...(subtitle ? { subtitle } : {}),
  blocks,
});

/** Compiles hints into the card the app renders. Pure and deterministic. */
export function compileCard(hints: UiHints): UiSchema {
  switch (hints.kind) {
    case "event_list": {
      const { period, count, truncated, events } = hints;
      const counted = plural(count, "event", "events");
      const title =
        period.mode === "day"
          ? `${counted} on ${period.date}`
          : `${counted} from ${datePart(period.start_at)} to ${datePart(period.end_at)}`;
      const subtitle = period.mode === "day" ? period.timezone : `${period.start_at} – ${period.end_at}`;
      const blocks = events.map(eventBlock);
      if (count === 0) blocks.push(notice("info", "Nothing scheduled."));
      if (truncated) blocks.push(notice("warning", `Only the first ${count} events are shown; narrow the period to see the rest.`));
      return card(hints.kind, title, subtitle, blocks);
    }
    case "event_detail":
      return card(hints.kind, "Event details", hints.event.title, [eventBlock(hints.event)]);
    case "event_created":
      return card(hints.kind, "Event created", hints.event.title, [eventBlock(hints.event)]);
    case "event_updated": {
      const changed = hints.changed_fields.map((field) => CHANGED_FIELD_LABELS[field] ?? humanize(field)).join(", ");
      const blocks = [eventBlock(hints.event)];
      if (changed) blocks.push(fields([{ label: "Changed", value: changed }]));
      return card(hints.kind, "Event updated", hints.event.title, blocks);
    }
    case "event_deleted":
      if (hints.occurrence_start)
        return card(hints.kind, "Occurrence removed", hints.title, [
          notice("success", `"${hints.title}" on ${datePart(hints.occurrence_start)} was removed; the other occurrences stay.`),
          fields([
            { label: "Event ID", value: hints.event_id },
            { label: "Removed occurrence", value: hints.occurrence_start },
          ]),
        ]);
      return card(hints.kind, "Event deleted", hints.title, [
        notice("success", `"${hints.title}" was removed from the calendar.`),
        fields([{ label: "Event ID", value: hints.event_id }]),
      ]);
    case "event_shared":
      return card(hints.kind, "Event shared", hints.event.title, [
        { type: "event", ...hints.event },
        fields([
          { label: `Invitee (${MATCHED_BY_LABELS[hints.invitee.matched_by]})`, value: hints.invitee.value },
          { label: "Permission", value: PERMISSION_LABELS[hints.permission] },
          { label: "Invitation", value: INVITATION_LABELS[hints.invitation_status] },
        ]),
      ]);
    case "invitation_list": {
      const { count, truncated, invitations } = hints;
      const blocks: Block[] = invitations.flatMap(({ event, permission, inviter }) => [
        { type: "event", ...event },
        fields([
          { label: "Invited by", value: inviter.name ?? inviter.email ?? inviter.phone ?? "Someone who shared it with you" },
          { label: "Permission", value: PERMISSION_LABELS[permission] },
        ]),
      ]);
      if (count === 0) blocks.push(notice("info", "No invitations are waiting for an answer."));
      if (truncated) blocks.push(notice("warning", `Only the first ${count} invitations are shown.`));
      return card(hints.kind, `${plural(count, "invitation", "invitations")} waiting`, undefined, blocks);
    }
    case "invitation_answered": {
      const accepted = hints.answer === "accepted";
      const blocks: Block[] = hints.event ? [eventBlock(hints.event)] : [];
      blocks.push(
        fields([
          ...(hints.event ? [] : [{ label: "Event ID", value: hints.event_id }]),
          { label: "Permission", value: PERMISSION_LABELS[hints.permission] },
        ]),
      );
      if (!accepted) blocks.push(notice("info", "The event will no longer be shared with you."));
      return card(hints.kind, accepted ? "Invitation accepted" : "Invitation declined", hints.event?.title, blocks);
    }
    case "contact_list": {
      const { query, count, truncated, contacts } = hints;
      const title = `${plural(count, "contact", "contacts")}${query ? ` matching "${query.value}"` : ""}`;
      const blocks: Block[] = contacts.map((contact) => ({ type: "contact", ...contact }));
      if (count === 0) blocks.push(notice("info", "No contacts found."));
      if (truncated) blocks.push(notice("warning", `Only the first ${count} contacts are shown; search by name to narrow the list.`));
      return card(hints.kind, title, undefined, blocks);
    }
    case "memory_updated": {
      const items = [{ label: "Mode", value: hints.mode === "merge" ? "Merged into the stored document" : "Replaced the stored document" }];
      if (hints.updated_fields.length > 0) items.unshift({ label: "Updated", value: hints.updated_fields.map(humanize).join(", ") });
      return card(hints.kind, MEMORY_TITLES[hints.memory_kind], `Version ${hints.version}`, [fields(items)]);
    }
    case "action_failed":
      return card(hints.kind, FAILED_TITLES[hints.action], undefined, [notice("error", failureText(hints.code))]);
  }
}
