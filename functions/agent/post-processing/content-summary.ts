// A one-line, plain-English account of a tool call, for history lists and compact context.
// Rules are tried in order: (a) the error, (b) the method's template, (c) "<module.method>
// succeeded", (d) "<tool_name> finished" / "<tool_name> failed". Templates read only
// strings and numbers out of the result (never serialize objects), so no JSON blob can leak
// in. Changing any rule's wording means bumping SUMMARY_VERSION, so stored summaries can be
// told apart from ones the current rules would write.
import type { Locale } from "./locale.ts";
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

const EN_TEMPLATES: Readonly<Record<string, Template>> = {
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

/** The same templates in Chinese: the same fields, read the same way. */
const zhMore = (data: Fields) => (data.truncated === true ? "（还有更多未显示）" : "");
const ZH_TEMPLATES: Readonly<Record<string, Template>> = {
  "calendar.read": (data) => {
    if (data.mode === "event") {
      const title = str(asRecord(data.event).title);
      return title && `查看日程：${title}`;
    }
    const count = listCount(data, "items");
    if (count === undefined) return undefined;
    if (data.mode === "day" && str(data.date)) return `${str(data.date)} 有 ${count} 个日程${zhMore(data)}`;
    if (data.mode === "range" && str(data.start_at) && str(data.end_at))
      return `${str(data.start_at)} 至 ${str(data.end_at)} 有 ${count} 个日程${zhMore(data)}`;
    return undefined;
  },
  "calendar.create": (data) => {
    const event = asRecord(data.event);
    const title = str(event.title);
    if (!title) return undefined;
    const start = str(event.start_at);
    return start ? `已创建日程：${title}（${start}）` : `已创建日程：${title}`;
  },
  "calendar.update": (data, input) => {
    const title = str(asRecord(data.event).title);
    if (!title) return undefined;
    const changed = names(data.changed_fields) ?? names(Object.keys(asRecord(input.patch)));
    return changed ? `已更新日程：${title}（${changed}）` : `已更新日程：${title}`;
  },
  "calendar.delete": (data) => {
    const deleted = asRecord(data.deleted);
    const title = str(deleted.title);
    const occurrence = str(deleted.occurrence_start);
    if (title && occurrence) return `已删除 ${title} 的一次重复（${occurrence}）`;
    return title && `已删除日程：${title}`;
  },
  "calendar.share": (data, input) => {
    const title = str(asRecord(data.event).title);
    const invitation = asRecord(data.invitation);
    const given = asRecord(input.invitee);
    const invitee = str(given.phone) ?? str(given.email) ?? str(given.user_id) ?? str(invitation.invitee_user_id);
    if (!title || !invitee) return undefined;
    const permission = str(invitation.permission);
    return permission ? `已将 ${title} 共享给 ${invitee}（${permission}）` : `已将 ${title} 共享给 ${invitee}`;
  },
  "calendar.invitations": (data) => {
    const count = listCount(data, "invitations");
    if (count === undefined) return undefined;
    const invitations = Array.isArray(data.invitations) ? data.invitations : [];
    const titles = names(invitations.map((invitation) => asRecord(asRecord(invitation).event).title));
    return `有 ${count} 个待回复的邀请${titles ? `：${titles}` : ""}${zhMore(data)}`;
  },
  "calendar.accept_invite": (data, input) => {
    const title = str(asRecord(data.event).title);
    if (title) return `已接受邀请：${title}`;
    const eventId = str(asRecord(data.invitation).event_id) ?? str(input.event_id);
    return eventId && `已接受日程 ${eventId} 的邀请`;
  },
  "calendar.reject_invite": (data, input) => {
    const eventId = str(asRecord(data.invitation).event_id) ?? str(input.event_id);
    return eventId && `已拒绝日程 ${eventId} 的邀请`;
  },
  "contacts.read": (data, input) => {
    const count = listCount(data, "contacts");
    if (count === undefined) return undefined;
    const searched = str(input.name) ?? str(input.phone) ?? str(input.email);
    return `找到 ${count} 位联系人${searched ? `（匹配“${searched}”）` : ""}${zhMore(data)}`;
  },
  "memory.read": (data) => {
    const kinds = Object.keys(data).filter((kind) => data[kind] !== null && typeof data[kind] === "object");
    return `已读取记忆（${kinds.length > 0 ? kinds.join(", ") : "无内容"}）`;
  },
  "memory.update": (data) => {
    const kind = str(data.kind);
    if (!kind) return undefined;
    const fields = names(data.updated_fields);
    return fields ? `已更新 ${kind}：${fields}` : `已更新 ${kind}`;
  },
};

/** The phrases the rules fall back on, per language. */
interface Phrases {
  templates: Readonly<Record<string, Template>>;
  unknownTool: (name: string | undefined) => string;
  skillRead: (path: string | undefined) => string;
  skillFailed: (path: string | undefined, message: string | undefined) => string;
  failed: (action: string, message: string | undefined) => string;
  finished: (action: string | undefined) => string;
}

const PHRASES: Readonly<Record<Locale, Phrases>> = {
  en: {
    templates: EN_TEMPLATES,
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
    templates: ZH_TEMPLATES,
    unknownTool: (name) => (name ? `无法调用未知工具 ${name}` : "unknown_tool 失败"),
    skillRead: (path) => (path ? `已读取技能文件 ${path}` : "view_skill_file 已完成"),
    skillFailed: (path, message) =>
      path && message ? `无法读取技能文件 ${path}：${message}` : message ? `view_skill_file 失败：${message}` : "view_skill_file 失败",
    failed: (action, message) => (message ? `${action} 失败：${message}` : `${action} 失败`),
    finished: (action) => (action ? `${action} 已完成` : "project_cli 已完成"),
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
  const template = Object.hasOwn(words.templates, action) ? words.templates[action] : undefined;
  const line = template?.(asRecord(output.result.data), callInput(output.tool_call_args));
  return line ?? words.finished(action);
}

/** The summary in the request's language; the same rules choose it in every language. */
export function buildToolContentSummary(output: ToolAgentOutput, locale: Locale = "en"): string {
  return cleanSummary(describe(output, PHRASES[locale]));
}
