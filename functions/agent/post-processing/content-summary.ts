// A one-line, plain-English account of a tool call, for history lists and compact context.
// Rules are tried in order: (a) the error, (b) the method's template, (c) "<module.method>
// succeeded", (d) "<tool_name> finished" / "<tool_name> failed". Templates read only
// strings and numbers out of the result (never serialize objects), so no JSON blob can leak
// in. Changing any rule's wording means bumping SUMMARY_VERSION, so stored summaries can be
// told apart from ones the current rules would write.
import { asRecord, callInput, type ToolAgentOutput } from "./tool-agent-output.ts";

export const SUMMARY_VERSION = 1;
export const SUMMARY_MAX_LENGTH = 200;

type Fields = Record<string, unknown>;
/** data: the result's data; input: the call's input (for what the data does not repeat). */
type Template = (data: Fields, input: Fields) => string | undefined;

const str = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === "number" && Number.isFinite(value) ? value : undefined);
const names = (value: unknown): string | undefined => {
  const list = Array.isArray(value) ? value.filter((item): item is string => typeof item === "string" && item !== "") : [];
  return list.length > 0 ? list.join(", ") : undefined;
};
const counted = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
/** Lists cut short by the tool say so, so nobody reads the count as the whole. */
const more = (data: Fields) => (data.truncated === true ? " (more not shown)" : "");

function listCount(data: Fields, listKey: string): number | undefined {
  const items = data[listKey];
  return num(data.count) ?? (Array.isArray(items) ? items.length : undefined);
}

const TEMPLATES: Readonly<Record<string, Template>> = {
  "calendar.read": (data) => {
    if (data.mode === "event") {
      const title = str(asRecord(data.event).title);
      return title && `Read event: ${title}`;
    }
    const count = listCount(data, "items");
    if (count === undefined) return undefined;
    const found = `Found ${counted(count, "event", "events")}`;
    if (data.mode === "day" && str(data.date)) return `${found} on ${str(data.date)}${more(data)}`;
    if (data.mode === "range" && str(data.start_at) && str(data.end_at))
      return `${found} from ${str(data.start_at)} to ${str(data.end_at)}${more(data)}`;
    return undefined;
  },
  "calendar.create": (data) => {
    const event = asRecord(data.event);
    const title = str(event.title);
    if (!title) return undefined;
    const start = str(event.start_at);
    return start ? `Created event: ${title} (${start})` : `Created event: ${title}`;
  },
  "calendar.update": (data, input) => {
    const title = str(asRecord(data.event).title);
    if (!title) return undefined;
    // changed_fields is in the result; the patch's keys say the same if it is not.
    const changed = names(data.changed_fields) ?? names(Object.keys(asRecord(input.patch)));
    return changed ? `Updated event: ${title} (${changed})` : `Updated event: ${title}`;
  },
  "calendar.delete": (data) => {
    const deleted = asRecord(data.deleted);
    const title = str(deleted.title);
    const occurrence = str(deleted.occurrence_start);
    if (title && occurrence) return `Removed one occurrence of ${title} (${occurrence})`;
    return title && `Deleted event: ${title}`;
  },
  "calendar.share": (data, input) => {
    const title = str(asRecord(data.event).title);
    const invitation = asRecord(data.invitation);
    // The result names only the resolved account; prefer the phone/e-mail the user gave.
    const given = asRecord(input.invitee);
    const invitee = str(given.phone) ?? str(given.email) ?? str(given.user_id) ?? str(invitation.invitee_user_id);
    if (!title || !invitee) return undefined;
    const permission = str(invitation.permission);
    return permission ? `Shared ${title} with ${invitee} (${permission})` : `Shared ${title} with ${invitee}`;
  },
  "calendar.invitations": (data) => {
    const count = listCount(data, "invitations");
    if (count === undefined) return undefined;
    const invitations = Array.isArray(data.invitations) ? data.invitations : [];
    const titles = names(invitations.map((invitation) => asRecord(asRecord(invitation).event).title));
    return `Found ${counted(count, "pending invitation", "pending invitations")}${titles ? `: ${titles}` : ""}${more(data)}`;
  },
  "calendar.accept_invite": (data, input) => {
    const title = str(asRecord(data.event).title);
    if (title) return `Accepted invitation to ${title}`;
    const eventId = str(asRecord(data.invitation).event_id) ?? str(input.event_id);
    return eventId && `Accepted invitation for event ${eventId}`;
  },
  "calendar.reject_invite": (data, input) => {
    const eventId = str(asRecord(data.invitation).event_id) ?? str(input.event_id);
    return eventId && `Declined invitation for event ${eventId}`;
  },
  "contacts.read": (data, input) => {
    const count = listCount(data, "contacts");
    if (count === undefined) return undefined;
    const searched = str(input.name) ?? str(input.phone) ?? str(input.email);
    return `Found ${counted(count, "contact", "contacts")}${searched ? ` matching "${searched}"` : ""}${more(data)}`;
  },
  "memory.read": (data) => {
    const kinds = Object.keys(data).filter((kind) => data[kind] !== null && typeof data[kind] === "object");
    return `Read memory (${kinds.length > 0 ? kinds.join(", ") : "nothing stored"})`;
  },
  "memory.update": (data) => {
    const kind = str(data.kind);
    if (!kind) return undefined;
    const fields = names(data.updated_fields);
    return fields ? `Updated ${kind}: ${fields}` : `Updated ${kind}`;
  },
};

/** Whitespace and control characters become single spaces; text longer than `max` ends in an ellipsis. */
export function cleanText(text: string, max: number): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this strips
  const flat = text.replace(/[\s\u0000-\u001f\u007f]+/g, " ").trim();
  if (flat.length <= max) return flat;
  let cut = flat.slice(0, max - 1);
  // Never leave half of a surrogate pair (an emoji cut in two) before the ellipsis.
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

export const cleanSummary = (text: string): string => cleanText(text, SUMMARY_MAX_LENGTH);

function describe(output: ToolAgentOutput): string {
  if (output.tool_name === "unknown_tool") {
    const name = str(output.result.requested_tool);
    return name ? `Could not call unknown tool ${name}` : "unknown_tool failed";
  }
  if (output.tool_name === "view_skill_file") {
    const path = output.result.path;
    if (output.error) {
      const message = str(output.error.message);
      if (path && message) return `Could not read skill file ${path}: ${message}`;
      return message ? `view_skill_file failed: ${message}` : "view_skill_file failed";
    }
    if (output.status === "failure") return "view_skill_file failed";
    return path ? `Read skill file ${path}` : "view_skill_file finished";
  }

  const { module, method } = output.result;
  const action = module && method ? `${module}.${method}` : undefined;
  if (output.error) {
    const message = str(output.error.message);
    if (!message) return `${action ?? "project_cli"} failed`;
    return `${action ?? "project_cli"} failed: ${message}`;
  }
  if (output.status === "failure") return "project_cli failed";
  if (!action) return "project_cli finished";
  const template = Object.hasOwn(TEMPLATES, action) ? TEMPLATES[action] : undefined;
  const line = template?.(asRecord(output.result.data), callInput(output.tool_call_args));
  return line ?? `${action} succeeded`;
}

export function buildToolContentSummary(output: ToolAgentOutput): string {
  return cleanSummary(describe(output));
}
