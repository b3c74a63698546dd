// ui_hints: the internal, compact description of the card a tool call should show. Only the
// fields a card needs are kept (never descriptions, notes or whole documents), so hints are
// cheap to store with the run and can be compiled again into the wire format (card-compiler.ts)
// when history is replayed. Built only from a CliResult and the call's input; never throws.
import { z } from "zod";
import {
  CalendarAnswerResult as AnswerData,
  CalendarDeleteResult as DeleteData,
  CalendarCreateResult as EventResult,
  EventView,
  CalendarInvitationsResult as InvitationsData,
  Permission,
  CalendarReadResult as ReadData,
  CalendarShareResult as ShareData,
  CalendarUpdateResult as UpdateData,
} from "../../project_cli/modules/calendar/results.ts";
import { ContactsReadResult as ContactsData } from "../../project_cli/modules/contacts/results.ts";
import { MemoryUpdateResult as MemoryUpdateData } from "../../project_cli/modules/memory/results.ts";
import {
  ToolsCallResult as ToolCallData,
  ToolsDescribeResult as ToolDescribeData,
  ToolsSearchResult as ToolSearchData,
} from "../../project_cli/modules/tools/results.ts";
import type { CliResult } from "../../project_cli/result.ts";

/** The project_cli actions that get a card. Reads of memory and skill files do not. */
export const HINTED_ACTIONS = [
  "calendar.read",
  "calendar.create",
  "calendar.update",
  "calendar.delete",
  "calendar.share",
  "calendar.invitations",
  "calendar.accept_invite",
  "calendar.reject_invite",
  "contacts.read",
  "memory.update",
  "tools.search",
  "tools.describe",
  "tools.call",
] as const;
export type HintedAction = (typeof HINTED_ACTIONS)[number];

const EventStatus = EventView.shape.status;
const EventAccess = EventView.shape.access;
const MemoryKind = MemoryUpdateData.shape.kind;

/** One event as a card shows it: times keep the offset of the event's own zone. */
export const EventHint = z.strictObject({
  id: z.string(),
  title: z.string(),
  start_at: z.string(),
  end_at: z.string().nullable(),
  timezone: z.string(),
  status: EventStatus,
  access: EventAccess,
  /** metadata.location, when the event has one. */
  location: z.string().optional(),
  /** The event repeats (its times are one occurrence's in a day or range read). */
  repeats: z.literal(true).optional(),
});
export type EventHint = z.infer<typeof EventHint>;

/** calendar.share answers with a reduced event (no zone, status or access). */
const SharedEventHint = z.strictObject({ id: z.string(), title: z.string(), start_at: z.string(), end_at: z.string().nullable() });

/** An invitation's preview of the event: what an invitee may see before accepting. */
const InvitedEventHint = EventHint.pick({ id: true, title: true, start_at: true, end_at: true, timezone: true, status: true });

/** Who sent an invitation; each part only when known. */
const InviterHint = z.strictObject({ name: z.string().optional(), email: z.string().optional(), phone: z.string().optional() });

const ContactHint = z.strictObject({ id: z.string(), name: z.string(), phone: z.string().optional(), email: z.string().optional() });

const ListPeriod = z.discriminatedUnion("mode", [
  z.strictObject({ mode: z.literal("day"), date: z.string(), timezone: z.string() }),
  z.strictObject({ mode: z.literal("range"), start_at: z.string(), end_at: z.string() }),
]);

export const UiHints = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("event_list"),
    period: ListPeriod,
    count: z.int().min(0),
    truncated: z.boolean(),
    events: z.array(EventHint),
  }),
  z.strictObject({ kind: z.literal("event_detail"), event: EventHint }),
  z.strictObject({ kind: z.literal("event_created"), event: EventHint }),
  z.strictObject({ kind: z.literal("event_updated"), event: EventHint, changed_fields: z.array(z.string()) }),
  z.strictObject({
    kind: z.literal("event_deleted"),
    event_id: z.string(),
    title: z.string(),
    /** Only this occurrence of a repeating event was removed. */
    occurrence_start: z.string().optional(),
  }),
  z.strictObject({
    kind: z.literal("event_shared"),
    event: SharedEventHint,
    /** Who was invited, as the caller named them (value), and the account it resolved to. */
    invitee: z.strictObject({ matched_by: z.enum(["phone", "email", "user_id"]), value: z.string(), user_id: z.string() }),
    permission: Permission,
    invitation_status: z.enum(["pending", "accepted", "rejected"]),
  }),
  z.strictObject({
    kind: z.literal("invitation_list"),
    count: z.int().min(0),
    truncated: z.boolean(),
    invitations: z.array(z.strictObject({ event: InvitedEventHint, permission: Permission, inviter: InviterHint })),
  }),
  z.strictObject({
    kind: z.literal("invitation_answered"),
    answer: z.enum(["accepted", "rejected"]),
    event_id: z.string(),
    permission: Permission,
    /** Present after accepting: the event is now visible to the caller. */
    event: EventHint.optional(),
  }),
  z.strictObject({
    kind: z.literal("contact_list"),
    /** The search the caller made, if any (contacts.read takes at most one of these). */
    query: z.strictObject({ field: z.enum(["name", "phone", "email"]), value: z.string() }).optional(),
    count: z.int().min(0),
    truncated: z.boolean(),
    contacts: z.array(ContactHint),
  }),
  z.strictObject({
    kind: z.literal("memory_updated"),
    memory_kind: MemoryKind,
    mode: z.enum(["merge", "replace"]),
    updated_fields: z.array(z.string()),
    version: z.int(),
  }),
  z.strictObject({
    kind: z.literal("tool_list"),
    query: z.string(),
    count: z.int().min(0),
    tools: z.array(z.strictObject({ tool_id: z.string(), name: z.string(), category: z.string() })),
  }),
  z.strictObject({
    kind: z.literal("tool_detail"),
    tool_id: z.string(),
    name: z.string(),
    category: z.string(),
    params: z.array(z.strictObject({ name: z.string(), required: z.boolean() })),
  }),
  z.strictObject({
    kind: z.literal("tool_result"),
    tool_id: z.string(),
    /** The answer's top-level plain values (text cut short); nested values are only counted. */
    values: z.array(z.strictObject({ name: z.string(), value: z.string() })),
    /** Parts of the answer not shown: nested values, or values beyond the first few. */
    hidden: z.int().min(0),
  }),
  z.strictObject({
    kind: z.literal("action_failed"),
    action: z.enum(HINTED_ACTIONS),
    code: z.string(),
    message: z.string(),
    retryable: z.boolean(),
    suggestion: z.string().optional(),
  }),
]);
export type UiHints = z.infer<typeof UiHints>;
export type UiHintKind = UiHints["kind"];

// Results are read through the schemas the methods declare (project_cli's results.ts files).
// If a handler's answer ever stops matching, the card is dropped (null), never a wrong card.
type EventData = z.infer<typeof EventView>;

const isHinted = (action: string): action is HintedAction => (HINTED_ACTIONS as readonly string[]).includes(action);

function eventHint(event: EventData): EventHint {
  const location = event.metadata?.location;
  return {
    id: event.id,
    title: event.title,
    start_at: event.start_at,
    end_at: event.end_at ?? null,
    timezone: event.timezone,
    status: event.status,
    access: event.access,
    ...(typeof location === "string" && location.trim() !== "" ? { location } : {}),
    ...(event.recurrence_rule ? { repeats: true as const } : {}),
  };
}

// A local copy of tool-agent-output's asRecord: importing it would make the two modules import each other.
function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** A tool's answer as a card shows it: at most this many values, each at most this long. */
const RESULT_VALUES = 8;
const VALUE_CHARS = 200;

function resultValues(result: unknown): { values: { name: string; value: string }[]; hidden: number } {
  const plain = (value: unknown) => typeof value === "string" || typeof value === "number" || typeof value === "boolean";
  const entries =
    result !== null && typeof result === "object" && !Array.isArray(result) ? Object.entries(result) : [["result", result] as const];
  const shown = entries.filter(([, value]) => plain(value)).slice(0, RESULT_VALUES);
  return {
    values: shown.map(([name, value]) => ({ name: String(name), value: String(value).slice(0, VALUE_CHARS) })),
    hidden: entries.length - shown.length,
  };
}

/** The search contacts.read was given, from the call's input (the result does not echo it). */
function contactQuery(input: Record<string, unknown>) {
  for (const field of ["name", "phone", "email"] as const) {
    const value = input[field];
    if (typeof value === "string" && value.trim() !== "") return { field, value };
  }
  return undefined;
}

function successHints(action: HintedAction, data: unknown, input: Record<string, unknown>): UiHints | null {
  switch (action) {
    case "calendar.read": {
      const read = ReadData.safeParse(data);
      if (!read.success) return null;
      const value = read.data;
      if (value.mode === "event") return { kind: "event_detail", event: eventHint(value.event) };
      const period =
        value.mode === "day"
          ? { mode: value.mode, date: value.date, timezone: value.timezone }
          : { mode: value.mode, start_at: value.start_at, end_at: value.end_at };
      return { kind: "event_list", period, count: value.count, truncated: value.truncated, events: value.items.map(eventHint) };
    }
    case "calendar.create": {
      const created = EventResult.safeParse(data);
      return created.success ? { kind: "event_created", event: eventHint(created.data.event) } : null;
    }
    case "calendar.update": {
      const updated = UpdateData.safeParse(data);
      return updated.success
        ? { kind: "event_updated", event: eventHint(updated.data.event), changed_fields: updated.data.changed_fields }
        : null;
    }
    case "calendar.delete": {
      const deleted = DeleteData.safeParse(data);
      if (!deleted.success) return null;
      const { id, title, occurrence_start } = deleted.data.deleted;
      return { kind: "event_deleted", event_id: id, title, ...(occurrence_start ? { occurrence_start } : {}) };
    }
    case "calendar.share": {
      const shared = ShareData.safeParse(data);
      if (!shared.success) return null;
      const { invitation, event } = shared.data;
      // The result only names the resolved account; the phone or e-mail the user gave is in the input.
      const given = record(input.invitee)[invitation.matched_by];
      return {
        kind: "event_shared",
        event: { id: event.id, title: event.title, start_at: event.start_at, end_at: event.end_at ?? null },
        invitee: {
          matched_by: invitation.matched_by,
          value: typeof given === "string" && given !== "" ? given : invitation.invitee_user_id,
          user_id: invitation.invitee_user_id,
        },
        permission: invitation.permission,
        invitation_status: invitation.status,
      };
    }
    case "calendar.invitations": {
      const listed = InvitationsData.safeParse(data);
      if (!listed.success) return null;
      return {
        kind: "invitation_list",
        count: listed.data.count,
        truncated: listed.data.truncated,
        invitations: listed.data.invitations.map(({ event, permission, inviter }) => ({
          event: {
            id: event.id,
            title: event.title,
            start_at: event.start_at,
            end_at: event.end_at,
            timezone: event.timezone,
            status: event.status,
          },
          permission,
          inviter: {
            ...(inviter.name ? { name: inviter.name } : {}),
            ...(inviter.email ? { email: inviter.email } : {}),
            ...(inviter.phone ? { phone: inviter.phone } : {}),
          },
        })),
      };
    }
    case "calendar.accept_invite":
    case "calendar.reject_invite": {
      const answered = AnswerData.safeParse(data);
      if (!answered.success) return null;
      const { invitation, event } = answered.data;
      return {
        kind: "invitation_answered",
        answer: action === "calendar.accept_invite" ? "accepted" : "rejected",
        event_id: invitation.event_id,
        permission: invitation.permission,
        ...(event ? { event: eventHint(event) } : {}),
      };
    }
    case "contacts.read": {
      const found = ContactsData.safeParse(data);
      if (!found.success) return null;
      const query = contactQuery(input);
      return {
        kind: "contact_list",
        ...(query ? { query } : {}),
        count: found.data.count,
        truncated: found.data.truncated,
        contacts: found.data.contacts.map((contact) => ({
          id: contact.id,
          name: contact.display_name,
          ...(contact.phone ? { phone: contact.phone } : {}),
          ...(contact.email ? { email: contact.email } : {}),
        })),
      };
    }
    case "memory.update": {
      const updated = MemoryUpdateData.safeParse(data);
      if (!updated.success) return null;
      const { kind, mode, updated_fields, version } = updated.data;
      return { kind: "memory_updated", memory_kind: kind, mode, updated_fields, version };
    }
    case "tools.search": {
      const found = ToolSearchData.safeParse(data);
      if (!found.success) return null;
      return {
        kind: "tool_list",
        query: typeof input.query === "string" ? input.query : "",
        count: found.data.count,
        tools: found.data.tools.map(({ tool_id, name, category }) => ({ tool_id, name, category })),
      };
    }
    case "tools.describe": {
      const described = ToolDescribeData.safeParse(data);
      if (!described.success) return null;
      const { tool_id, name, category, params } = described.data.tool;
      return {
        kind: "tool_detail",
        tool_id,
        name,
        category,
        params: params.map((param) => ({ name: param.name, required: param.required })),
      };
    }
    case "tools.call": {
      const called = ToolCallData.safeParse(data);
      return called.success ? { kind: "tool_result", tool_id: called.data.tool_id, ...resultValues(called.data.result) } : null;
    }
  }
}

/**
 * The card for one project_cli result, or null when the action gets no card (memory.read,
 * unknown methods, envelope errors) or the data is not the shape the handlers return.
 * `input` is the call's `input` object ({} when the model sent none or sent garbage).
 */
export function uiHintsFor(result: CliResult, input: Record<string, unknown>): UiHints | null {
  const action = `${result.module ?? ""}.${result.method ?? ""}`;
  if (!isHinted(action)) return null;
  const hints: UiHints | null = result.ok
    ? successHints(action, result.data, input)
    : {
        kind: "action_failed",
        action,
        code: result.error.code,
        message: result.error.message,
        retryable: result.error.retryable,
        ...(typeof result.error.details.suggestion === "string" ? { suggestion: result.error.details.suggestion } : {}),
      };
  // Last guard: what is stored with the run must always validate.
  return hints && UiHints.safeParse(hints).success ? hints : null;
}
