// ToolAgentOutput: status rules, what result keeps (and never keeps), view_skill_file, and
// that nothing a model or a broken tool produces can make post-processing throw.
import { describe, expect, test } from "vitest";
import {
  buildToolAgentOutput,
  callInput,
  postProcessToolCall,
  ToolAgentOutput,
  type ViewSkillFileResult,
} from "../../../functions/agent/post-processing/index.ts";
import { failure } from "../../../functions/project_cli/result.ts";

const EVENT_ID = "a0000000-0000-4000-8000-000000000001";
const dayData = (truncated: boolean) => ({ mode: "day", date: "2026-04-23", timezone: "UTC", items: [], count: 0, truncated });
const cli = (args: unknown, output: unknown) =>
  buildToolAgentOutput({
    toolName: "project_cli",
    toolCallId: "call-7",
    args,
    output: output as Parameters<typeof buildToolAgentOutput>[0]["output"],
  });

describe("status", () => {
  test("success keeps module, method and data; error is null", () => {
    const out = cli(
      { module: "calendar", method: "read", input: {} },
      { ok: true, module: "calendar", method: "read", data: dayData(false) },
    );
    expect(out).toMatchObject({
      tool_name: "project_cli",
      tool_call_id: "call-7",
      status: "success",
      result: { module: "calendar", method: "read", data: dayData(false) },
      error: null,
    });
  });

  test("truncated: true makes a success partial", () => {
    expect(cli({}, { ok: true, module: "calendar", method: "read", data: dayData(true) }).status).toBe("partial");
  });

  test("only the boolean true counts as cut short", () => {
    expect(cli({}, { ok: true, module: "calendar", method: "read", data: { ...dayData(false), truncated: "true" } }).status).toBe(
      "success",
    );
  });

  test.each(["NOT_FOUND", "FORBIDDEN", "CONFLICT", "UNAUTHENTICATED", "UPSTREAM_UNAVAILABLE", "INTERNAL"] as const)(
    "%s is a failure carrying the whole error, no data",
    (code) => {
      const output = failure("calendar", "delete", code, `a ${code} message`, { suggestion: "do something else" });
      const out = cli({ module: "calendar", method: "delete", input: { event_id: EVENT_ID } }, output);
      expect(out.status).toBe("failure");
      expect(out.result).toEqual({ module: "calendar", method: "delete" });
      expect(out.error).toEqual(output.error);
      expect(out.ui_hints).toMatchObject({
        kind: "action_failed",
        action: "calendar.delete",
        code,
        retryable: code === "UPSTREAM_UNAVAILABLE",
      });
    },
  );

  test("a failure is never partial, even if something says truncated", () => {
    const output = { ...failure("contacts", "read", "INTERNAL", "boom"), data: { truncated: true } };
    expect(cli({}, output).status).toBe("failure");
  });
});

describe("malformed args never throw", () => {
  const success = { ok: true, module: "contacts", method: "read", data: { contacts: [], count: 0, truncated: false } };
  test.each([
    null,
    undefined,
    "calendar read",
    42,
    [],
    {},
    { module: "contacts" },
    { input: null },
    { input: '{"name":"Bob"}' },
    { input: [1, 2] },
  ])("args %j", (args) => {
    const processed = postProcessToolCall({
      toolName: "project_cli",
      toolCallId: "call-1",
      args,
      output: success as Parameters<typeof buildToolAgentOutput>[0]["output"],
    });
    expect(processed.toolAgentOutput.tool_call_args).toBe(args);
    expect(processed.toolAgentOutput.status).toBe("success");
    // No search can be read from a broken input, so the card has no query.
    expect(processed.toolAgentOutput.ui_hints).toEqual({ kind: "contact_list", count: 0, truncated: false, contacts: [] });
    expect(processed.summary).toBe("Found 0 contacts");
    expect(ToolAgentOutput.safeParse(processed.toolAgentOutput).success).toBe(true);
  });

  test("callInput only ever returns a plain object", () => {
    expect(callInput(null)).toEqual({});
    expect(callInput({ input: "x" })).toEqual({});
    expect(callInput({ input: [1] })).toEqual({});
    expect(callInput({ input: { name: "Bob" } })).toEqual({ name: "Bob" });
  });

  test("share whose args lost the invitee falls back to the resolved account id", () => {
    const data = {
      invitation: {
        id: "c1",
        permission: "view",
        status: "pending",
        created_at: "2026-04-20T00:00:00Z",
        invitee_user_id: "u-bob",
        matched_by: "email",
      },
      event: { id: EVENT_ID, title: "Sync", start_at: "2026-04-23T16:00:00+08:00", end_at: null },
    };
    const processed = postProcessToolCall({
      toolName: "project_cli",
      toolCallId: "c",
      args: "garbage",
      output: { ok: true, module: "calendar", method: "share", data },
    });
    expect(processed.toolAgentOutput.ui_hints).toMatchObject({
      kind: "event_shared",
      invitee: { matched_by: "email", value: "u-bob", user_id: "u-bob" },
    });
    expect(processed.summary).toBe("Shared Sync with u-bob (view)");
  });
});

describe("malformed tool results never throw", () => {
  test.each([
    undefined,
    null,
    "text",
    { ok: "yes" },
    { ok: true },
    { ok: false, error: "boom" },
    { ok: false, error: { code: "NOPE", message: "x" } },
  ])("output %j becomes an INTERNAL failure", (output) => {
    const out = cli({ module: "calendar", method: "create", input: {} }, output);
    expect(out.status).toBe("failure");
    expect(out.error).toMatchObject({ code: "INTERNAL", message: "the tool returned a result of an unexpected shape" });
    // The names come from the args when the result cannot be trusted.
    expect(out.result).toEqual({ module: "calendar", method: "create" });
    expect(ToolAgentOutput.safeParse(out).success).toBe(true);
  });

  test("a thrown tool reported as a bare {ok: false, error} keeps its error and borrows the names from the args", () => {
    const output = { ok: false, error: { code: "INTERNAL", message: "the tool failed unexpectedly", retryable: false, details: {} } };
    const out = cli({ module: "calendar", method: "update", input: {} }, output);
    expect(out.result).toEqual({ module: "calendar", method: "update" });
    expect(out.error?.message).toBe("the tool failed unexpectedly");
    expect(out.ui_hints).toMatchObject({ kind: "action_failed", action: "calendar.update" });
  });

  test("a failure without retryable/details gets the code's retryable and empty details", () => {
    const out = cli({}, { ok: false, module: "contacts", method: "read", error: { code: "UPSTREAM_UNAVAILABLE", message: "down" } });
    expect(out.error).toEqual({ code: "UPSTREAM_UNAVAILABLE", message: "down", retryable: true, details: {} });
  });

  test("success data of an unexpected shape keeps the data but gets no card", () => {
    const out = cli({}, { ok: true, module: "calendar", method: "create", data: { event: { id: 1 } } });
    expect(out.status).toBe("success");
    expect(out.ui_hints).toBeNull();
  });
});

describe("view_skill_file", () => {
  const skill = (args: unknown, output: unknown) =>
    postProcessToolCall({ toolName: "view_skill_file", toolCallId: "call-2", args, output: output as ViewSkillFileResult });

  test("success keeps the path, never the content, and has no card", () => {
    const content = "---\nname: calendar\n---\nSECRET-LOOKING BODY";
    const processed = skill({ path: "calendar/SKILL.md" }, { ok: true, path: "calendar/SKILL.md", content });
    expect(processed.toolAgentOutput).toEqual({
      tool_name: "view_skill_file",
      tool_call_id: "call-2",
      tool_call_args: { path: "calendar/SKILL.md" },
      status: "success",
      result: { path: "calendar/SKILL.md" },
      error: null,
      ui_hints: null,
    });
    expect(JSON.stringify(processed)).not.toContain("SECRET-LOOKING BODY");
    expect(processed.uiSchema).toBeNull();
    expect(processed.summary).toBe("Read skill file calendar/SKILL.md");
  });

  test("failure: the path asked for, the error with available files", () => {
    const error = { code: "SKILL_FILE_NOT_FOUND", message: "no such skill file", available_files: ["calendar/SKILL.md"] };
    const processed = skill({ path: "calendar/nope.md" }, { ok: false, error });
    expect(processed.toolAgentOutput).toMatchObject({ status: "failure", result: { path: "calendar/nope.md" }, error, ui_hints: null });
    expect(processed.summary).toBe("Could not read skill file calendar/nope.md: no such skill file");
  });

  test.each([null, "calendar/SKILL.md", { path: 7 }, {}])("failure with unusable args %j: path null", (args) => {
    const processed = skill(args, { ok: false, error: { code: "INVALID_PATH", message: "bad path" } });
    expect(processed.toolAgentOutput.result).toEqual({ path: null });
    expect(processed.summary).toBe("view_skill_file failed: bad path");
  });

  test("a result of another shape is an INTERNAL failure", () => {
    const processed = skill({ path: "a.md" }, "oops");
    expect(processed.toolAgentOutput).toMatchObject({ status: "failure", error: { code: "INTERNAL" }, result: { path: "a.md" } });
  });
});

describe("unknown tools", () => {
  test("a tool name the model invented is recorded as unknown_tool, not as one of ours", () => {
    const processed = postProcessToolCall({
      toolName: "calendar_read",
      toolCallId: "call-9",
      args: { date: "2026-04-23" },
      output: { ok: false, error: { code: "INTERNAL", message: "x", retryable: false, details: {} } },
    });
    expect(processed.toolAgentOutput).toMatchObject({
      tool_name: "unknown_tool",
      status: "failure",
      result: { requested_tool: "calendar_read" },
      error: { code: "UNKNOWN_TOOL" },
      ui_hints: null,
    });
    expect(processed.uiSchema).toBeNull();
    expect(processed.summary).toBe("Could not call unknown tool calendar_read");
    expect(ToolAgentOutput.safeParse(processed.toolAgentOutput).success).toBe(true);
  });
});
