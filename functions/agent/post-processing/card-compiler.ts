// ui_schema: the wire format the app renders. A card is a title, an optional subtitle and a
// list of generic blocks, so the app needs one renderer per block type, not one per action.
// compileCard is a pure function of the hints and the locale they were shown in (no clock, no
// randomness): the same hints and locale always give the same card, which is how history
// replay rebuilds it exactly (the locale is kept with the message).
// Changing what a given hints value compiles to, or the block shapes, means a new
// UI_SCHEMA_VERSION. Documented in docs/tool-cards.md.
import { z } from "zod";
import { CARD_WORDS, type CardWords } from "./card-words.ts";
import type { Locale } from "./locale.ts";
import { type EventHint, type UiHints, UiHints as UiHintsSchema } from "./ui-hints.ts";

// 2: action_failed cards speak to the person (card-words.ts), not in the tool's words; event
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

/**
 * Compiles hints into the card the app renders, in the request's language. Pure and
 * deterministic: the same hints and locale always give the same card.
 */
export function compileCard(hints: UiHints, locale: Locale = "en"): UiSchema {
  const w = CARD_WORDS[locale];
  const counted = (count: number, noun: keyof CardWords["nouns"]) => w.count(count, ...w.nouns[noun]);
  switch (hints.kind) {
    case "event_list": {
      const { period, count, truncated, events } = hints;
      const title =
        period.mode === "day"
          ? w.eventsOn(counted(count, "event"), period.date)
          : w.eventsFrom(counted(count, "event"), datePart(period.start_at), datePart(period.end_at));
      const subtitle = period.mode === "day" ? period.timezone : `${period.start_at} – ${period.end_at}`;
      const blocks = events.map(eventBlock);
      if (count === 0) blocks.push(notice("info", w.nothingScheduled));
      if (truncated) blocks.push(notice("warning", w.onlyFirstEvents(count)));
      return card(hints.kind, title, subtitle, blocks);
    }
    case "event_detail":
      return card(hints.kind, w.eventDetails, hints.event.title, [eventBlock(hints.event)]);
    case "event_created":
      return card(hints.kind, w.eventCreated, hints.event.title, [eventBlock(hints.event)]);
    case "event_updated": {
      const changed = hints.changed_fields.map((field) => w.changedFields[field] ?? humanize(field)).join(", ");
      const blocks = [eventBlock(hints.event)];
      if (changed) blocks.push(fields([{ label: w.changed, value: changed }]));
      return card(hints.kind, w.eventUpdated, hints.event.title, blocks);
    }
    case "event_deleted":
      if (hints.occurrence_start)
        return card(hints.kind, w.occurrenceRemoved, hints.title, [
          notice("success", w.occurrenceRemovedText(hints.title, datePart(hints.occurrence_start))),
          fields([
            { label: w.eventId, value: hints.event_id },
            { label: w.removedOccurrence, value: hints.occurrence_start },
          ]),
        ]);
      return card(hints.kind, w.eventDeleted, hints.title, [
        notice("success", w.removedFromCalendar(hints.title)),
        fields([{ label: w.eventId, value: hints.event_id }]),
      ]);
    case "event_shared":
      return card(hints.kind, w.eventShared, hints.event.title, [
        { type: "event", ...hints.event },
        fields([
          { label: w.invitee(w.matchedBy[hints.invitee.matched_by]), value: hints.invitee.value },
          { label: w.permissionLabel, value: w.permission[hints.permission] },
          { label: w.invitationLabel, value: w.invitation[hints.invitation_status] },
        ]),
      ]);
    case "invitation_list": {
      const { count, truncated, invitations } = hints;
      const blocks: Block[] = invitations.flatMap(({ event, permission, inviter }) => [
        { type: "event", ...event },
        fields([
          { label: w.invitedBy, value: inviter.name ?? inviter.email ?? inviter.phone ?? w.someone },
          { label: w.permissionLabel, value: w.permission[permission] },
        ]),
      ]);
      if (count === 0) blocks.push(notice("info", w.noInvitations));
      if (truncated) blocks.push(notice("warning", w.onlyFirstInvitations(count)));
      return card(hints.kind, w.invitationsWaiting(counted(count, "invitation")), undefined, blocks);
    }
    case "invitation_answered": {
      const accepted = hints.answer === "accepted";
      const blocks: Block[] = hints.event ? [eventBlock(hints.event)] : [];
      blocks.push(
        fields([
          ...(hints.event ? [] : [{ label: w.eventId, value: hints.event_id }]),
          { label: w.permissionLabel, value: w.permission[hints.permission] },
        ]),
      );
      if (!accepted) blocks.push(notice("info", w.noLongerShared));
      return card(hints.kind, accepted ? w.invitationAccepted : w.invitationDeclined, hints.event?.title, blocks);
    }
    case "contact_list": {
      const { query, count, truncated, contacts } = hints;
      const title = query ? w.contactsMatching(counted(count, "contact"), query.value) : counted(count, "contact");
      const blocks: Block[] = contacts.map((contact) => ({ type: "contact", ...contact }));
      if (count === 0) blocks.push(notice("info", w.noContacts));
      if (truncated) blocks.push(notice("warning", w.onlyFirstContacts(count)));
      return card(hints.kind, title, undefined, blocks);
    }
    case "memory_updated": {
      const items = [{ label: w.mode, value: hints.mode === "merge" ? w.merged : w.replaced }];
      if (hints.updated_fields.length > 0) items.unshift({ label: w.updated, value: hints.updated_fields.map(humanize).join(", ") });
      return card(hints.kind, w.memoryTitle[hints.memory_kind], w.version(hints.version), [fields(items)]);
    }
    case "tool_list": {
      const blocks: Block[] = hints.tools.length
        ? [fields(hints.tools.map((tool) => ({ label: tool.name, value: `${tool.tool_id} · ${tool.category}` })))]
        : [notice("info", w.noTools)];
      return card(hints.kind, w.toolsMatching(counted(hints.count, "tool"), hints.query), undefined, blocks);
    }
    case "tool_detail": {
      const params = hints.params.map((param) => (param.required ? w.requiredParam(param.name) : param.name)).join(", ");
      return card(hints.kind, w.toolDetails, hints.name, [
        fields([
          { label: w.toolId, value: hints.tool_id },
          { label: w.category, value: hints.category },
          { label: w.parameters, value: params || w.noParameters },
        ]),
      ]);
    }
    case "tool_result": {
      const blocks: Block[] = hints.values.length
        ? [fields(hints.values.map(({ name, value }) => ({ label: humanize(name), value })))]
        : [];
      if (hints.hidden > 0 || hints.values.length === 0) blocks.push(notice("info", w.partShown));
      return card(hints.kind, w.toolResult, hints.tool_id, blocks);
    }
    case "action_failed":
      return card(hints.kind, w.failedTitle[hints.action], undefined, [
        notice("error", Object.hasOwn(w.failure, hints.code) ? w.failure[hints.code]! : w.failure.INTERNAL!),
      ]);
  }
}
