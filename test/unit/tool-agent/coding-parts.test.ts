// The coding agent's pure parts: test-case matching, workspace paths, repository archives, the
// demo model's templates (each module run against its own tests) and its moves, task books and
// internal messages.
import { Buffer } from "node:buffer";
import type { LanguageModelV4CallOptions, LanguageModelV4Prompt } from "@ai-sdk/provider";
import { expect, test } from "vitest";
import { AgentMessage } from "../../../functions/tool-agent/agent-messages.ts";
import { nextCodingMove } from "../../../functions/tool-agent/coding/demo-coding-model.ts";
import { DEMO_TEMPLATES, templateFor } from "../../../functions/tool-agent/coding/demo-templates.ts";
import { mismatch, parseToolTests } from "../../../functions/tool-agent/coding/tool-tests.ts";
import { pathProblem } from "../../../functions/tool-agent/coding/workspace.ts";
import { ArchiveError, archiveUrl, unpackArchive, untar } from "../../../functions/tool-agent/tasks/archive.ts";
import { CreateToolRequest, newTaskId, taskBook } from "../../../functions/tool-agent/tasks/task-request.ts";
import { repositoryArchive } from "../../support/tool-tasks.ts";

test("mismatch: a subset match, arrays item by item, numbers to float noise, where it differs", () => {
  expect(mismatch({ a: 1 }, { a: 1, b: 2 })).toBeUndefined();
  expect(mismatch({ a: { b: [1, 2] } }, { a: { b: [1, 2] } })).toBeUndefined();
  expect(mismatch({ sum: 0.3 }, { sum: 0.1 + 0.2 })).toBeUndefined();
  expect(mismatch({ a: { b: [1, 2] } }, { a: { b: [1, 3] } })).toBe("result.a.b[1]: expected 2, got 3");
  expect(mismatch([1], [1, 2])).toBe("result: expected 1 items, got 2");
  expect(mismatch({ a: null }, {})).toBe("result.a: expected null, got undefined");
  expect(mismatch({ a: 1 }, "text")).toBe('result: expected an object, got "text"');
  expect(mismatch("4", 4)).toBe('result: expected "4", got 4');
});

test("parseToolTests: a list of cases with an input object, or the problem", () => {
  expect(parseToolTests('[{"input": {"n": 1}, "expect": 2}]')).toMatchObject({ ok: true, cases: [{ input: { n: 1 }, expect: 2 }] });
  expect(parseToolTests("not json")).toEqual({ ok: false, problem: "tests.json is not JSON" });
  expect(parseToolTests("[]")).toMatchObject({ ok: false, problem: expect.stringContaining("write at least one test case") });
  expect(parseToolTests('[{"input": 3}]')).toMatchObject({ ok: false, problem: expect.stringContaining("0.input") });
});

test("workspace paths: plain relative names only", () => {
  for (const good of ["tool.js", "tests.json", "src/util.js", "a/b/c/d.txt", "README.md"]) expect(pathProblem(good)).toBeUndefined();
  for (const bad of ["../x", "./x", ".env", "/etc/passwd", "a//b", "a/b/c/d/e", "a b", "", "a\\b", "x".repeat(65), "a/../b"]) {
    expect(pathProblem(bad), bad).toBeDefined();
  }
});

test("archives: GitHub's .tar.gz with its top folder removed, a plain tar, damaged ones refused", async () => {
  const gz = repositoryArchive("repo-main", { "tool.json": "{}", "src/tool.js": "export default {}" });
  expect(await unpackArchive(new Uint8Array(gz), 1_000_000)).toEqual([
    { path: "tool.json", content: "{}" },
    { path: "src/tool.js", content: "export default {}" },
  ]);
  const { gunzipSync } = await import("node:zlib");
  const tar = new Uint8Array(gunzipSync(gz));
  expect(untar(tar).map((f) => f.path)).toEqual(["tool.json", "src/tool.js"]);
  expect(() => untar(tar.subarray(0, 1024 + 1))).toThrow(ArchiveError); // inside tool.json's body
  await expect(unpackArchive(new Uint8Array(gz), 100)).rejects.toThrow("unpacks to more than 100 bytes");
});

test("archives: a pax header names the next entry", () => {
  const block = (text: string) => {
    const b = Buffer.alloc(512);
    b.write(text);
    return b;
  };
  const header = (name: string, size: number, type: string) => {
    const b = Buffer.alloc(512);
    b.write(name, 0);
    b.write(`${size.toString(8).padStart(11, "0")}\0`, 124);
    b.write(type, 156);
    return b;
  };
  const record = `30 path=a-very/long/name.json\n`;
  const tar = Buffer.concat([
    header("PaxHeader", record.length, "x"),
    block(record),
    header("short", 2, "0"),
    block("{}"),
    header("README", 2, "0"),
    block("hi"),
    Buffer.alloc(1024),
  ]);
  expect(untar(new Uint8Array(tar))).toEqual([
    { path: "a-very/long/name.json", content: "{}" },
    { path: "README", content: "hi" },
  ]);
});

test("archiveUrl: a GitHub repository becomes its archive; any other URL is used as it is", () => {
  expect(archiveUrl("https://github.com/user/project")).toBe("https://codeload.github.com/user/project/tar.gz/HEAD");
  expect(archiveUrl("https://github.com/user/project.git")).toBe("https://codeload.github.com/user/project/tar.gz/HEAD");
  expect(archiveUrl("https://example.com/x.tar.gz")).toBe("https://example.com/x.tar.gz");
});

test("every demo template's module passes its own tests", async () => {
  for (const template of DEMO_TEMPLATES) {
    const { default: tool } = await import(`data:text/javascript,${encodeURIComponent(template.module)}`);
    for (const testCase of template.tests) {
      const response: Response = await tool.fetch(
        new Request("http://tool.local/", { method: "POST", body: JSON.stringify(testCase.input) }),
      );
      expect(mismatch(testCase.expect, await response.json()), `${template.tool_id}: ${testCase.name}`).toBeUndefined();
    }
  }
});

test("templateFor picks by words in either language", () => {
  expect(templateFor("帮我创建一个文本摘要工具")?.tool_id).toBe("text_summarize");
  expect(templateFor("I need to summarize articles")?.tool_id).toBe("text_summarize");
  expect(templateFor("计算平均值")?.tool_id).toBe("number_stats");
  expect(templateFor("make a url slug")?.tool_id).toBe("slugify");
  expect(templateFor("translate Klingon")).toBeUndefined();
});

/** The prompt the demo model sees after `results` (tool name, input, output), in order. */
function conversation(task: Record<string, unknown>, results: [string, unknown, unknown][]): LanguageModelV4CallOptions {
  const prompt: LanguageModelV4Prompt = [{ role: "user", content: [{ type: "text", text: JSON.stringify(task) }] }];
  for (const [i, [toolName, input, output]] of results.entries()) {
    prompt.push({ role: "assistant", content: [{ type: "tool-call", toolCallId: `c${i}`, toolName, input }] });
    prompt.push({
      role: "tool",
      content: [{ type: "tool-result", toolCallId: `c${i}`, toolName, output: { type: "json", value: output as never } }],
    });
  }
  return { prompt } as LanguageModelV4CallOptions;
}

test("the demo model: write, write, test, register; a taken id gets a suffix; failing tests end its run", () => {
  const task = { task: "build_tool", description: "reverse a text" };
  expect(nextCodingMove(conversation(task, []))).toMatchObject({ call: { toolName: "write_file", input: { path: "tool.js" } } });
  const written: [string, unknown, unknown][] = [
    ["write_file", { path: "tool.js" }, { status: "ok" }],
    ["write_file", { path: "tests.json" }, { status: "ok" }],
  ];
  expect(nextCodingMove(conversation(task, written))).toMatchObject({ call: { toolName: "run_tests" } });
  const tested: [string, unknown, unknown][] = [...written, ["run_tests", {}, { status: "passed" }]];
  expect(nextCodingMove(conversation(task, tested))).toMatchObject({
    call: { toolName: "register_tool", input: { tool_id: "reverse_text" } },
  });
  const taken: [string, unknown, unknown][] = [
    ...tested,
    [
      "register_tool",
      { tool_id: "reverse_text" },
      { status: "error", message: "reverse_text is already a registered tool; choose another tool_id" },
    ],
  ];
  expect(nextCodingMove(conversation(task, taken))).toMatchObject({
    call: { toolName: "register_tool", input: { tool_id: "reverse_text_2" } },
  });
  const failing: [string, unknown, unknown][] = [...written, ["run_tests", {}, { status: "failed" }]];
  expect(nextCodingMove(conversation(task, failing))).toMatchObject({ text: expect.stringMatching(/does not debug/) });
  const repair = { task: "repair_tool", tool_id: "reverse_text" };
  expect(nextCodingMove(conversation(repair, []))).toMatchObject({ call: { toolName: "read_file", input: { path: "tool.json" } } });
});

test("task books: free text becomes a build with details; ids name their kind", () => {
  expect(taskBook(CreateToolRequest.parse({ description: "x", task_spec: "more" }))).toEqual({ type: "build_tool", details: "more" });
  expect(
    taskBook(CreateToolRequest.parse({ description: "x", task_spec: { type: "github_deploy", repo_url: "https://github.com/a/b" } })),
  ).toMatchObject({
    type: "github_deploy",
  });
  expect(CreateToolRequest.safeParse({ description: "x", task_spec: { type: "repair_tool", tool_id: "a" } }).success).toBe(false);
  expect(newTaskId("github_deploy")).toMatch(/^deploy_[0-9a-f]{12}$/);
});

test("messages: the four types parse; anything else is refused", () => {
  expect(AgentMessage.safeParse({ type: "health_alert", payload: { tool_id: "a", error: "HTTP 503", last_healthy: null } }).success).toBe(
    true,
  );
  expect(
    AgentMessage.safeParse({ type: "tool_ready", payload: { task_id: "create_0123456789ab", tool_id: "a", result: "ok" } }).success,
  ).toBe(true);
  expect(AgentMessage.safeParse({ type: "tool_ready", payload: { task_id: "../x", tool_id: "a", result: "ok" } }).success).toBe(false);
  expect(AgentMessage.safeParse({ type: "shutdown", payload: {} }).success).toBe(false);
});
