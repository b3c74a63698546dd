// A one-line account of a tool call, for history lists and compact context, in the request's
// language. Rules are tried in order: (a) the error, (b) the method's template, (c)
// "<module.method> succeeded", (d) "<tool_name> finished" / "<tool_name> failed". Templates
// read only strings and numbers out of the result (never serialize objects), so no JSON blob
// can leak in; they pick the facts once, and each language's phrases word them. Changing any
// rule's wording means bumping SUMMARY_VERSION, so stored summaries can be told apart from
// ones the current rules would write.
import type { Locale } from "./locale.ts";
import { asRecord, callInput, type ToolAgentOutput } from "./tool-agent-output.ts";

export const SUMMARY_VERSION = 1;
export const SUMMARY_MAX_LENGTH = 200;

type Fields = Record<string, unknown>;
/** data: the result's data; input: the call's input (for what the data does not repeat). */
type Template = (data: Fields, input: Fields, words: Phrases) => string | undefined;

/** A non-blank string, or undefined: how every template reads a field. */
export const str = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === "number" && Number.isFinite(value) ? value : undefined);
const names = (value: unknown): string | undefined => {
  const list = Array.isArray(value) ? value.filter((item): item is string => typeof item === "string" && item !== "") : [];
  return list.length > 0 ? list.join(", ") : undefined;
};
const counted = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
/** Lists cut short by the tool say so, so nobody reads the count as the whole. */
const cut = (data: Fields) => data.truncated === true;

function listCount(data: Fields, listKey: string): number | undefined {
  const items = data[listKey];
  return num(data.count) ?? (Array.isArray(items) ? items.length : undefined);
}

/** How each language words the facts the templates pick. */
interface Phrases {
  readEvent: (title: string) => string;
  eventsOnDay: (count: number, date: string, more: boolean) => string;
  eventsInRange: (count: number, start: string, end: string, more: boolean) => string;
  created: (title: string, start: string | undefined) => string;
  updated: (title: string, changed: string | undefined) => string;
  deleted: (title: string) => string;
  removedOccurrence: (title: string, occurrence: string) => string;
  shared: (title: string, invitee: string, permission: string | undefined) => string;
  invitations: (count: number, titles: string | undefined, more: boolean) => string;
  accepted: (title: string) => string;
  acceptedFor: (eventId: string) => string;
  declinedFor: (eventId: string) => string;
  contacts: (count: number, searched: string | undefined, more: boolean) => string;
  memoryRead: (kinds: string[]) => string;
  memoryUpdated: (kind: string, fields: string | undefined) => string;
  toolsFound: (count: number, query: string | undefined) => string;
  toolRead: (name: string, toolId: string) => string;
  toolRan: (toolId: string) => string;
  unknownTool: (name: string | undefined) => string;
  skillRead: (path: string | undefined) => string;
  skillFailed: (path: string | undefined, message: string | undefined) => string;
  failed: (action: string, message: string | undefined) => string;
  finished: (action: string | undefined) => string;
}

const enMore = (more: boolean) => (more ? " (more not shown)" : "");
const zhMore = (more: boolean) => (more ? "（还有更多未显示）" : "");

const PHRASES: Readonly<Record<Locale, Phrases>> = {
  en: {
    readEvent: (title) => `Read event: ${title}`,
    eventsOnDay: (count, date, more) => `Found ${counted(count, "event", "events")} on ${date}${enMore(more)}`,
    eventsInRange: (count, start, end, more) => `Found ${counted(count, "event", "events")} from ${start} to ${end}${enMore(more)}`,
    created: (title, start) => (start ? `Created event: ${title} (${start})` : `Created event: ${title}`),
    updated: (title, changed) => (changed ? `Updated event: ${title} (${changed})` : `Updated event: ${title}`),
    deleted: (title) => `Deleted event: ${title}`,
    removedOccurrence: (title, occurrence) => `Removed one occurrence of ${title} (${occurrence})`,
    shared: (title, invitee, permission) => `Shared ${title} with ${invitee}${permission ? ` (${permission})` : ""}`,
    invitations: (count, titles, more) =>
      `Found ${counted(count, "pending invitation", "pending invitations")}${titles ? `: ${titles}` : ""}${enMore(more)}`,
    accepted: (title) => `Accepted invitation to ${title}`,
    acceptedFor: (eventId) => `Accepted invitation for event ${eventId}`,
    declinedFor: (eventId) => `Declined invitation for event ${eventId}`,
    contacts: (count, searched, more) =>
      `Found ${counted(count, "contact", "contacts")}${searched ? ` matching "${searched}"` : ""}${enMore(more)}`,
    memoryRead: (kinds) => `Read memory (${kinds.length > 0 ? kinds.join(", ") : "nothing stored"})`,
    memoryUpdated: (kind, fields) => (fields ? `Updated ${kind}: ${fields}` : `Updated ${kind}`),
    toolsFound: (count, query) => `Found ${counted(count, "tool", "tools")}${query ? ` matching "${query}"` : ""}`,
    toolRead: (name, toolId) => `Read tool: ${name} (${toolId})`,
    toolRan: (toolId) => `Ran tool ${toolId}`,
    unknownTool: (name) => (name ? `Could not call unknown tool ${name}` : "unknown_tool failed"),
    skillRead: (path) => (path ? `Read skill file ${path}` : "view_skill_file finished"),
    skillFailed: (path, message) =>
      path && message
        ? `Could not read skill file ${path}: ${message}`
        : message
          ? `view_skill_file failed: ${message}`
          : "view_skill_file failed",
    failed: (action, message) => (message ? `${action} failed: ${message}` : `${action} failed`),
    finished: (action) => (action ? `${action} succeeded` : "project_cli finished"),
  },
  zh: {
    readEvent: (title) => `查看日程：${title}`,
    eventsOnDay: (count, date, more) => `${date} 有 ${count} 个日程${zhMore(more)}`,
    eventsInRange: (count, start, end, more) => `${start} 至 ${end} 有 ${count} 个日程${zhMore(more)}`,
    created: (title, start) => (start ? `已创建日程：${title}（${start}）` : `已创建日程：${title}`),
    updated: (title, changed) => (changed ? `已更新日程：${title}（${changed}）` : `已更新日程：${title}`),
    deleted: (title) => `已删除日程：${title}`,
    removedOccurrence: (title, occurrence) => `已删除 ${title} 的一次重复（${occurrence}）`,
    shared: (title, invitee, permission) => `已将 ${title} 共享给 ${invitee}${permission ? `（${permission}）` : ""}`,
    invitations: (count, titles, more) => `有 ${count} 个待回复的邀请${titles ? `：${titles}` : ""}${zhMore(more)}`,
    accepted: (title) => `已接受邀请：${title}`,
    acceptedFor: (eventId) => `已接受日程 ${eventId} 的邀请`,
    declinedFor: (eventId) => `已拒绝日程 ${eventId} 的邀请`,
    contacts: (count, searched, more) => `找到 ${count} 位联系人${searched ? `（匹配“${searched}”）` : ""}${zhMore(more)}`,
    memoryRead: (kinds) => `已读取记忆（${kinds.length > 0 ? kinds.join(", ") : "无内容"}）`,
    memoryUpdated: (kind, fields) => (fields ? `已更新 ${kind}：${fields}` : `已更新 ${kind}`),
    toolsFound: (count, query) => `找到 ${count} 个工具${query ? `（匹配“${query}”）` : ""}`,
    toolRead: (name, toolId) => `查看工具：${name}（${toolId}）`,
    toolRan: (toolId) => `已运行工具 ${toolId}`,
    unknownTool: (name) => (name ? `无法调用未知工具 ${name}` : "unknown_tool 失败"),
    skillRead: (path) => (path ? `已读取技能文件 ${path}` : "view_skill_file 已完成"),
    skillFailed: (path, message) =>
      path && message ? `无法读取技能文件 ${path}：${message}` : message ? `view_skill_file 失败：${message}` : "view_skill_file 失败",
    failed: (action, message) => (message ? `${action} 失败：${message}` : `${action} 失败`),
    finished: (action) => (action ? `${action} 已完成` : "project_cli 已完成"),
  },
};

/** Which facts each method's summary names; the same in every language. */
const TEMPLATES: Readonly<Record<string, Template>> = {
  "calendar.read": (data, _input, w) => {
    if (data.mode === "event") {
      const title = str(asRecord(data.event).title);
      return title && w.readEvent(title);
    }
    const count = listCount(data, "items");
    if (count === undefined) return undefined;
    if (data.mode === "day" && str(data.date)) return w.eventsOnDay(count, str(data.date)!, cut(data));
    if (data.mode === "range" && str(data.start_at) && str(data.end_at))
      return w.eventsInRange(count, str(data.start_at)!, str(data.end_at)!, cut(data));
    return undefined;
  },
  "calendar.create": (data, _input, w) => {
    const event = asRecord(data.event);
    const title = str(event.title);
    return title && w.created(title, str(event.start_at));
  },
  "calendar.update": (data, input, w) => {
    const title = str(asRecord(data.event).title);
    // changed_fields is in the result; the patch's keys say the same if it is not.
    return title && w.updated(title, names(data.changed_fields) ?? names(Object.keys(asRecord(input.patch))));
  },
  "calendar.delete": (data, _input, w) => {
    const deleted = asRecord(data.deleted);
    const title = str(deleted.title);
    const occurrence = str(deleted.occurrence_start);
    if (title && occurrence) return w.removedOccurrence(title, occurrence);
    return title && w.deleted(title);
  },
  "calendar.share": (data, input, w) => {
    const title = str(asRecord(data.event).title);
    const invitation = asRecord(data.invitation);
    // The result names only the resolved account; prefer the phone/e-mail the user gave.
    const given = asRecord(input.invitee);
    const invitee = str(given.phone) ?? str(given.email) ?? str(given.user_id) ?? str(invitation.invitee_user_id);
    return title && invitee ? w.shared(title, invitee, str(invitation.permission)) : undefined;
  },
  "calendar.invitations": (data, _input, w) => {
    const count = listCount(data, "invitations");
    if (count === undefined) return undefined;
    const invitations = Array.isArray(data.invitations) ? data.invitations : [];
    return w.invitations(count, names(invitations.map((invitation) => asRecord(asRecord(invitation).event).title)), cut(data));
  },
  "calendar.accept_invite": (data, input, w) => {
    const title = str(asRecord(data.event).title);
    if (title) return w.accepted(title);
    const eventId = str(asRecord(data.invitation).event_id) ?? str(input.event_id);
    return eventId && w.acceptedFor(eventId);
  },
  "calendar.reject_invite": (data, input, w) => {
    const eventId = str(asRecord(data.invitation).event_id) ?? str(input.event_id);
    return eventId && w.declinedFor(eventId);
  },
  "contacts.read": (data, input, w) => {
    const count = listCount(data, "contacts");
    return count === undefined ? undefined : w.contacts(count, str(input.name) ?? str(input.phone) ?? str(input.email), cut(data));
  },
  "memory.read": (data, _input, w) =>
    w.memoryRead(Object.keys(data).filter((kind) => data[kind] !== null && typeof data[kind] === "object")),
  "memory.update": (data, _input, w) => {
    const kind = str(data.kind);
    return kind && w.memoryUpdated(kind, names(data.updated_fields));
  },
  "tools.search": (data, input, w) => {
    const count = listCount(data, "tools");
    return count === undefined ? undefined : w.toolsFound(count, str(input.query));
  },
  "tools.describe": (data, _input, w) => {
    const tool = asRecord(data.tool);
    const name = str(tool.name);
    const toolId = str(tool.tool_id);
    return name && toolId ? w.toolRead(name, toolId) : undefined;
  },
  // Never the tool's answer: it is arbitrary data, and a summary is one plain line.
  "tools.call": (data, _input, w) => {
    const toolId = str(data.tool_id);
    return toolId && w.toolRan(toolId);
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

function describe(output: ToolAgentOutput, words: Phrases): string {
  if (output.tool_name === "unknown_tool") return words.unknownTool(str(output.result.requested_tool));
  if (output.tool_name === "view_skill_file") {
    const path = output.result.path ?? undefined;
    if (output.error) return words.skillFailed(path, str(output.error.message));
    if (output.status === "failure") return words.skillFailed(undefined, undefined);
    return words.skillRead(path);
  }

  const { module, method } = output.result;
  const action = module && method ? `${module}.${method}` : undefined;
  if (output.error) return words.failed(action ?? "project_cli", str(output.error.message));
  if (output.status === "failure") return words.failed("project_cli", undefined);
  if (!action) return words.finished(undefined);
  const template = Object.hasOwn(TEMPLATES, action) ? TEMPLATES[action] : undefined;
  const line = template?.(asRecord(output.result.data), callInput(output.tool_call_args), words);
  return line ?? words.finished(action);
}

/** The summary in the request's language; the same rules choose it in every language. */
export function buildToolContentSummary(output: ToolAgentOutput, locale: Locale = "en"): string {
  return cleanSummary(describe(output, PHRASES[locale]));
}
