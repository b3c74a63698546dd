// The summary rules: error first, then the method's template, then the generic and final
// fallbacks; text cleaned, capped at 200 characters, never a JSON blob.
import { describe, expect, test } from "vitest";
import {
  buildToolAgentOutput,
  buildToolContentSummary,
  cleanSummary,
  postProcessToolCall,
  SUMMARY_MAX_LENGTH,
  SUMMARY_VERSION,
  type ToolAgentOutput,
} from "../../../functions/agent/post-processing/index.ts";
import { failure } from "../../../functions/project_cli/result.ts";

const EVENT_ID = "a0000000-0000-4000-8000-000000000001";
const event = (title: unknown = "Project sync") => ({
  id: EVENT_ID,
  title,
  start_at: "2026-04-23T16:00:00+08:00",
  end_at: null,
  timezone: "Asia/Shanghai",
  status: "active",
  access: "owner",
  metadata: {},
});

function summarize(module: string, method: string, data: unknown, input: unknown = {}, locale: "en" | "zh" = "en"): string {
  const output = buildToolAgentOutput({
    toolName: "project_cli",
    toolCallId: "c",
    args: { module, method, input },
    output: { ok: true, module, method, data },
  });
  return buildToolContentSummary(output, locale);
}

describe("per-method templates", () => {
  test.each([
    [
      "calendar.read day",
      "calendar",
      "read",
      { mode: "day", date: "2026-04-23", timezone: "UTC", items: [], count: 3, truncated: false },
      {},
      "Found 3 events on 2026-04-23",
    ],
    [
      "calendar.read range",
      "calendar",
      "read",
      { mode: "range", start_at: "2026-04-20T00:00:00Z", end_at: "2026-04-27T00:00:00Z", items: [], count: 0, truncated: false },
      {},
      "Found 0 events from 2026-04-20T00:00:00Z to 2026-04-27T00:00:00Z",
    ],
    ["calendar.read event", "calendar", "read", { mode: "event", event: event() }, {}, "Read event: Project sync"],
    ["calendar.create", "calendar", "create", { event: event() }, {}, "Created event: Project sync (2026-04-23T16:00:00+08:00)"],
    [
      "calendar.update",
      "calendar",
      "update",
      { event: event("Renamed"), changed_fields: ["title", "status"] },
      {},
      "Updated event: Renamed (title, status)",
    ],
    [
      "calendar.update without changed_fields",
      "calendar",
      "update",
      { event: event() },
      { event_id: EVENT_ID, patch: { end_at: null } },
      "Updated event: Project sync (end_at)",
    ],
    ["calendar.delete", "calendar", "delete", { deleted: { id: EVENT_ID, title: "Project sync" } }, {}, "Deleted event: Project sync"],
    [
      "calendar.share by email",
      "calendar",
      "share",
      {
        invitation: { permission: "invite", status: "pending", invitee_user_id: "u2", matched_by: "email" },
        event: { id: EVENT_ID, title: "Project sync" },
      },
      { event_id: EVENT_ID, invitee: { email: "bob@example.com" }, permissions: { view: true, edit: true, invite: true } },
      "Shared Project sync with bob@example.com (invite)",
    ],
    [
      "calendar.share by user id",
      "calendar",
      "share",
      {
        invitation: { permission: "view", status: "pending", invitee_user_id: "u2", matched_by: "user_id" },
        event: { id: EVENT_ID, title: "Project sync" },
      },
      { invitee: { user_id: "u2" } },
      "Shared Project sync with u2 (view)",
    ],
    [
      "calendar.accept_invite",
      "calendar",
      "accept_invite",
      { invitation: { event_id: EVENT_ID, permission: "view" }, event: event() },
      {},
      "Accepted invitation to Project sync",
    ],
    [
      "calendar.accept_invite, event not returned",
      "calendar",
      "accept_invite",
      { invitation: { event_id: EVENT_ID, permission: "view" } },
      {},
      `Accepted invitation for event ${EVENT_ID}`,
    ],
    [
      "calendar.reject_invite",
      "calendar",
      "reject_invite",
      { invitation: { event_id: EVENT_ID, permission: "view" } },
      {},
      `Declined invitation for event ${EVENT_ID}`,
    ],
    ["contacts.read all", "contacts", "read", { contacts: [{}, {}], count: 2, truncated: false }, {}, "Found 2 contacts"],
    [
      "contacts.read by name",
      "contacts",
      "read",
      { contacts: [{}], count: 1, truncated: false },
      { name: "Bob" },
      'Found 1 contact matching "Bob"',
    ],
    [
      "contacts.read by phone",
      "contacts",
      "read",
      { contacts: [], count: 0, truncated: false },
      { phone: "+8613812345678" },
      'Found 0 contacts matching "+8613812345678"',
    ],
    ["contacts.read count from the list", "contacts", "read", { contacts: [{}, {}, {}] }, {}, "Found 3 contacts"],
    [
      "memory.read both",
      "memory",
      "read",
      { user_memory: { content: {}, version: 1 }, work_profile: { content: {}, version: 2 } },
      {},
      "Read memory (user_memory, work_profile)",
    ],
    [
      "memory.read one present",
      "memory",
      "read",
      { user_memory: null, work_profile: { content: {}, version: 2 } },
      {},
      "Read memory (work_profile)",
    ],
    ["memory.read nothing stored", "memory", "read", { user_memory: null }, { kind: "user_memory" }, "Read memory (nothing stored)"],
    [
      "memory.update",
      "memory",
      "update",
      { kind: "work_profile", content: { role: "PM" }, version: 2, updated_fields: ["role", "team"], mode: "merge" },
      {},
      "Updated work_profile: role, team",
    ],
  ])("%s", (_name, module, method, data, input, expected) => {
    expect(summarize(module, method, data, input)).toBe(expected);
    // Every template has its Chinese twin: the same case, in Chinese words.
    const zh = summarize(module, method, data, input, "zh");
    expect(zh).not.toBe(expected);
    expect(zh).toMatch(/[\u4e00-\u9fff]/);
  });

  test("view_skill_file", () => {
    const output = buildToolAgentOutput({
      toolName: "view_skill_file",
      toolCallId: "c",
      args: { path: "contacts/SKILL.md" },
      output: { ok: true, path: "contacts/SKILL.md", content: "..." },
    });
    expect(buildToolContentSummary(output)).toBe("Read skill file contacts/SKILL.md");
  });
});

describe("priority", () => {
  test("the error wins over a template, even if the record also has data", () => {
    const output: ToolAgentOutput = {
      tool_name: "project_cli",
      tool_call_id: "c",
      tool_call_args: {},
      status: "failure",
      result: { module: "calendar", method: "create", data: { event: event() } },
      error: { code: "CONFLICT", message: "this already exists", retryable: false, details: {} },
      ui_hints: null,
    };
    expect(buildToolContentSummary(output)).toBe("calendar.create failed: this already exists");
  });

  test.each(["NOT_FOUND", "UPSTREAM_UNAVAILABLE", "METHOD_NOT_ALLOWED"] as const)("%s: <module.method> failed: <message>", (code) => {
    const output = buildToolAgentOutput({
      toolName: "project_cli",
      toolCallId: "c",
      args: {},
      output: failure("contacts", "read", code, `message for ${code}`),
    });
    expect(buildToolContentSummary(output)).toBe(`contacts.read failed: message for ${code}`);
  });

  test("generic fallback when the template cannot be filled", () => {
    expect(summarize("calendar", "create", { event: { id: EVENT_ID } })).toBe("calendar.create succeeded");
    expect(summarize("calendar", "read", { mode: "day" })).toBe("calendar.read succeeded");
    expect(summarize("memory", "update", {})).toBe("memory.update succeeded");
  });

  test("generic fallback for a method with no template", () => {
    expect(summarize("calendar", "export", { url: "x" })).toBe("calendar.export succeeded");
  });

  const bare = { tool_call_id: "c", tool_call_args: null, ui_hints: null } as const;
  test.each([
    [{ ...bare, tool_name: "project_cli", status: "success", result: { module: null, method: null }, error: null }, "project_cli finished"],
    [
      { ...bare, tool_name: "project_cli", status: "failure", result: { module: "calendar", method: "read" }, error: null },
      "project_cli failed",
    ],
    [
      {
        ...bare,
        tool_name: "project_cli",
        status: "failure",
        result: { module: null, method: null },
        error: { code: "INTERNAL", message: " ", retryable: false, details: {} },
      },
      "project_cli failed",
    ],
    [{ ...bare, tool_name: "view_skill_file", status: "success", result: { path: null }, error: null }, "view_skill_file finished"],
    [{ ...bare, tool_name: "view_skill_file", status: "failure", result: { path: null }, error: null }, "view_skill_file failed"],
  ] satisfies Array<[ToolAgentOutput, string]>)("final fallback: %j", (output, expected) => {
    expect(buildToolContentSummary(output)).toBe(expected);
  });
});

describe("cleaning", () => {
  test("newlines, tabs and runs of spaces collapse to single spaces", () => {
    expect(summarize("calendar", "delete", { deleted: { id: EVENT_ID, title: "  Team\n\n sync\t\tweekly \r\n" } })).toBe(
      "Deleted event: Team sync weekly",
    );
    const output = buildToolAgentOutput({
      toolName: "project_cli",
      toolCallId: "c",
      args: {},
      output: failure("calendar", "read", "INTERNAL", "line one\nline two\u0000"),
    });
    expect(buildToolContentSummary(output)).toBe("calendar.read failed: line one line two");
  });

  test("capped at 200 characters with an ellipsis", () => {
    const summary = summarize("calendar", "delete", { deleted: { id: EVENT_ID, title: "x".repeat(500) } });
    expect(summary).toHaveLength(SUMMARY_MAX_LENGTH);
    expect(SUMMARY_MAX_LENGTH).toBe(200);
    expect(summary.endsWith("x…")).toBe(true);
    expect(summary.startsWith("Deleted event: xxx")).toBe(true);
  });

  test("exactly 200 characters is left alone", () => {
    const text = "y".repeat(200);
    expect(cleanSummary(text)).toBe(text);
    expect(cleanSummary(`${text}z`)).toBe(`${"y".repeat(199)}…`);
  });

  test("the cut never splits an emoji, and no space is left before the ellipsis", () => {
    const split = cleanSummary(`${"a".repeat(198)}😀tail`);
    expect(split).toBe(`${"a".repeat(198)}…`);
    expect(cleanSummary(`${"a".repeat(198)} bcd`)).toBe(`${"a".repeat(198)}…`);
  });

  test("objects are never serialized into the summary", () => {
    const summary = summarize("calendar", "create", { event: { ...event(), title: { text: "nested" } } });
    expect(summary).toBe("calendar.create succeeded");
    expect(summarize("calendar", "update", { event: event(), changed_fields: [{ a: 1 }, "title"] })).toBe(
      "Updated event: Project sync (title)",
    );
    expect(summarize("memory", "update", { kind: { a: 1 }, updated_fields: ["x"] })).not.toMatch(/[{}]/);
  });
});

describe("version", () => {
  test("postProcessToolCall reports the summary rules' version with each summary", () => {
    expect(SUMMARY_VERSION).toBe(1);
    const processed = postProcessToolCall({
      toolName: "project_cli",
      toolCallId: "c",
      args: {},
      output: failure(null, null, "INVALID_ENVELOPE", "bad"),
    });
    expect(processed.summaryVersion).toBe(SUMMARY_VERSION);
    expect(processed.summary).toBe("project_cli failed: bad");
  });
});
