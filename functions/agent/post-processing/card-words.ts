// Every word a card shows, per language. The card compiler picks one table by the request's
// locale and builds the same blocks from the same hints in every language; raw names the tool
// uses stay in the hints, and the card says what a person reads.
import type { Locale } from "./locale.ts";
import type { HintedAction } from "./ui-hints.ts";

type Permission = "view" | "edit" | "invite";

export interface CardWords {
  changedFields: Readonly<Record<string, string>>;
  permission: Readonly<Record<Permission, string>>;
  invitation: Readonly<Record<"pending" | "accepted" | "rejected", string>>;
  memoryTitle: Readonly<Record<"user_memory" | "work_profile", string>>;
  matchedBy: Readonly<Record<"phone" | "email" | "user_id", string>>;
  failedTitle: Readonly<Record<HintedAction, string>>;
  /** What a person reads when an action ended failed, by error code (INTERNAL for any other). */
  failure: Readonly<Record<string, string>>;
  /** "3 events", "No events": `one`/`many` name the thing counted. */
  count: (count: number, one: string, many: string) => string;
  nouns: { event: [string, string]; contact: [string, string]; invitation: [string, string]; tool: [string, string] };
  eventsOn: (counted: string, date: string) => string;
  eventsFrom: (counted: string, from: string, to: string) => string;
  nothingScheduled: string;
  onlyFirstEvents: (count: number) => string;
  eventDetails: string;
  eventCreated: string;
  eventUpdated: string;
  changed: string;
  eventDeleted: string;
  removedFromCalendar: (title: string) => string;
  eventId: string;
  occurrenceRemoved: string;
  occurrenceRemovedText: (title: string, date: string) => string;
  removedOccurrence: string;
  eventShared: string;
  invitee: (matchedBy: string) => string;
  permissionLabel: string;
  invitationLabel: string;
  invitationsWaiting: (counted: string) => string;
  invitedBy: string;
  someone: string;
  noInvitations: string;
  onlyFirstInvitations: (count: number) => string;
  invitationAccepted: string;
  invitationDeclined: string;
  noLongerShared: string;
  contactsMatching: (counted: string, value: string) => string;
  noContacts: string;
  onlyFirstContacts: (count: number) => string;
  mode: string;
  merged: string;
  replaced: string;
  updated: string;
  version: (n: number) => string;
  toolsMatching: (counted: string, query: string) => string;
  noTools: string;
  toolDetails: string;
  toolId: string;
  category: string;
  parameters: string;
  requiredParam: (name: string) => string;
  noParameters: string;
  toolResult: string;
  partShown: string;
}

const EN: CardWords = {
  changedFields: {
    title: "title",
    description: "description",
    start_at: "start time",
    end_at: "end time",
    timezone: "time zone",
    metadata: "details",
    recurrence_rule: "repeat rule",
    status: "status",
  },
  permission: { view: "Can view", edit: "Can edit", invite: "Can edit and invite" },
  invitation: { pending: "Pending", accepted: "Accepted", rejected: "Declined" },
  memoryTitle: { user_memory: "Memory updated", work_profile: "Work profile updated" },
  matchedBy: { phone: "Phone", email: "Email", user_id: "User ID" },
  failedTitle: {
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
    "tools.search": "Could not search the tools",
    "tools.describe": "Could not read the tool",
    "tools.call": "Could not run the tool",
  },
  failure: {
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
  },
  count: (count, one, many) => (count === 0 ? `No ${many}` : `${count} ${count === 1 ? one : many}`),
  nouns: {
    event: ["event", "events"],
    contact: ["contact", "contacts"],
    invitation: ["invitation", "invitations"],
    tool: ["tool", "tools"],
  },
  eventsOn: (counted, date) => `${counted} on ${date}`,
  eventsFrom: (counted, from, to) => `${counted} from ${from} to ${to}`,
  nothingScheduled: "Nothing scheduled.",
  onlyFirstEvents: (count) => `Only the first ${count} events are shown; narrow the period to see the rest.`,
  eventDetails: "Event details",
  eventCreated: "Event created",
  eventUpdated: "Event updated",
  changed: "Changed",
  eventDeleted: "Event deleted",
  removedFromCalendar: (title) => `"${title}" was removed from the calendar.`,
  eventId: "Event ID",
  occurrenceRemoved: "Occurrence removed",
  occurrenceRemovedText: (title, date) => `"${title}" on ${date} was removed; the other occurrences stay.`,
  removedOccurrence: "Removed occurrence",
  eventShared: "Event shared",
  invitee: (matchedBy) => `Invitee (${matchedBy})`,
  permissionLabel: "Permission",
  invitationLabel: "Invitation",
  invitationsWaiting: (counted) => `${counted} waiting`,
  invitedBy: "Invited by",
  someone: "Someone who shared it with you",
  noInvitations: "No invitations are waiting for an answer.",
  onlyFirstInvitations: (count) => `Only the first ${count} invitations are shown.`,
  invitationAccepted: "Invitation accepted",
  invitationDeclined: "Invitation declined",
  noLongerShared: "The event will no longer be shared with you.",
  contactsMatching: (counted, value) => `${counted} matching "${value}"`,
  noContacts: "No contacts found.",
  onlyFirstContacts: (count) => `Only the first ${count} contacts are shown; search by name to narrow the list.`,
  mode: "Mode",
  merged: "Merged into the stored document",
  replaced: "Replaced the stored document",
  updated: "Updated",
  version: (n) => `Version ${n}`,
  toolsMatching: (counted, query) => `${counted} matching "${query}"`,
  noTools: "No registered tool does that.",
  toolDetails: "Tool details",
  toolId: "Tool ID",
  category: "Category",
  parameters: "Parameters",
  requiredParam: (name) => `${name} (required)`,
  noParameters: "none",
  toolResult: "Tool result",
  partShown: "Only part of the answer is shown.",
};

const ZH: CardWords = {
  changedFields: {
    title: "标题",
    description: "描述",
    start_at: "开始时间",
    end_at: "结束时间",
    timezone: "时区",
    metadata: "详情",
    recurrence_rule: "重复规则",
    status: "状态",
  },
  permission: { view: "可查看", edit: "可编辑", invite: "可编辑和邀请" },
  invitation: { pending: "待回复", accepted: "已接受", rejected: "已拒绝" },
  memoryTitle: { user_memory: "记忆已更新", work_profile: "工作资料已更新" },
  matchedBy: { phone: "手机号", email: "邮箱", user_id: "用户 ID" },
  failedTitle: {
    "calendar.read": "无法读取日历",
    "calendar.create": "无法创建日程",
    "calendar.update": "无法更新日程",
    "calendar.delete": "无法删除日程",
    "calendar.share": "无法共享日程",
    "calendar.invitations": "无法列出邀请",
    "calendar.accept_invite": "无法接受邀请",
    "calendar.reject_invite": "无法拒绝邀请",
    "contacts.read": "无法读取联系人",
    "memory.update": "无法更新记忆",
    "tools.search": "无法搜索工具",
    "tools.describe": "无法读取工具",
    "tools.call": "无法运行工具",
  },
  failure: {
    INVALID_ENVELOPE: "无法按要求完成请求，没有做任何更改。",
    UNKNOWN_METHOD: "无法按要求完成请求，没有做任何更改。",
    METHOD_NOT_ALLOWED: "助手在这里不能执行此操作，没有做任何更改。",
    INVALID_ACTION_INPUT: "无法按要求完成请求，没有做任何更改。",
    NOT_FOUND: "找不到该内容。它可能已被删除，或没有共享给你。",
    FORBIDDEN: "你没有执行此操作的权限，可以请日程的所有者修改。",
    CONFLICT: "这与当前情况冲突（例如对方已被邀请），没有做任何更改。",
    UNAUTHENTICATED: "登录已失效，请重新登录。",
    UPSTREAM_UNAVAILABLE: "暂时无法访问你的数据，请稍后再试。",
    INTERNAL: "我们这边出了问题，没有做任何更改。",
  },
  count: (count, one) => (count === 0 ? `没有${one}` : `${count} 个${one}`),
  nouns: { event: ["日程", "日程"], contact: ["联系人", "联系人"], invitation: ["邀请", "邀请"], tool: ["工具", "工具"] },
  eventsOn: (counted, date) => `${date}：${counted}`,
  eventsFrom: (counted, from, to) => `${from} 至 ${to}：${counted}`,
  nothingScheduled: "没有安排。",
  onlyFirstEvents: (count) => `仅显示前 ${count} 个日程，缩小时间范围可查看其余日程。`,
  eventDetails: "日程详情",
  eventCreated: "日程已创建",
  eventUpdated: "日程已更新",
  changed: "已修改",
  eventDeleted: "日程已删除",
  removedFromCalendar: (title) => `“${title}”已从日历中删除。`,
  eventId: "日程 ID",
  occurrenceRemoved: "已删除一次重复",
  occurrenceRemovedText: (title, date) => `已删除 ${date} 的“${title}”，其他重复保持不变。`,
  removedOccurrence: "删除的重复",
  eventShared: "日程已共享",
  invitee: (matchedBy) => `受邀人（${matchedBy}）`,
  permissionLabel: "权限",
  invitationLabel: "邀请",
  invitationsWaiting: (counted) => `${counted}待回复`,
  invitedBy: "邀请人",
  someone: "与你共享的人",
  noInvitations: "没有待回复的邀请。",
  onlyFirstInvitations: (count) => `仅显示前 ${count} 个邀请。`,
  invitationAccepted: "已接受邀请",
  invitationDeclined: "已拒绝邀请",
  noLongerShared: "此日程将不再与你共享。",
  contactsMatching: (counted, value) => `${counted}（匹配“${value}”）`,
  noContacts: "没有找到联系人。",
  onlyFirstContacts: (count) => `仅显示前 ${count} 位联系人，按姓名搜索可缩小范围。`,
  mode: "方式",
  merged: "已合并到已存内容",
  replaced: "已替换已存内容",
  updated: "已更新",
  version: (n) => `版本 ${n}`,
  toolsMatching: (counted, query) => `${counted}（匹配“${query}”）`,
  noTools: "没有已注册的工具能做到。",
  toolDetails: "工具详情",
  toolId: "工具 ID",
  category: "类别",
  parameters: "参数",
  requiredParam: (name) => `${name}（必填）`,
  noParameters: "无",
  toolResult: "工具结果",
  partShown: "只显示了部分结果。",
};

export const CARD_WORDS: Readonly<Record<Locale, CardWords>> = { en: EN, zh: ZH };
