// Tasks on `wrangler dev` with the offline demo coding model: a request for a tool that does not
// exist goes on the queue (tool_request), runs as a Workflow, and ends with an active tool that
// select_tool and MCP run; a repository archive is deployed; a tool whose health checks fail is
// repaired by a task the health alert opened. Tasks are private to the key that asked.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startToolAgentDev, type ToolAgentDev } from "../../support/tool-agent-dev.ts";
import { repositoryArchive, waitForTask } from "../../support/tool-tasks.ts";

let agent: ToolAgentDev;
let creator: string;
let repoServer: Server;
let repoUrl: string;

const deployable = {
  "tool.json": JSON.stringify({
    tool_id: "word_flip",
    name: "Word flipper",
    description: "Reverses the order of the words of a sentence.",
    input_schema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    output_schema: { type: "object", properties: { flipped: { type: "string" } }, required: ["flipped"] },
  }),
  "tool.js": `export default { async fetch(request) { const { text } = await request.json(); return Response.json({ flipped: text.split(/\\s+/).reverse().join(" ") }); } };`,
  "tests.json": JSON.stringify([{ name: "three words", input: { text: "one two three" }, expect: { flipped: "three two one" } }]),
  "README.md": "# word flip\n",
};

beforeAll(async () => {
  repoServer = createServer((req, res) => {
    if (req.url === "/word-flip.tar.gz") {
      res.writeHead(200, { "content-type": "application/gzip" }).end(repositoryArchive("word-flip-main", deployable));
    } else {
      res.writeHead(404).end("no such repository");
    }
  });
  await new Promise<void>((resolve) => repoServer.listen(0, "127.0.0.1", resolve));
  repoUrl = `http://127.0.0.1:${(repoServer.address() as AddressInfo).port}`;
  agent = await startToolAgentDev({ TOOL_AGENT_REPAIR_AFTER_FAILURES: "1" });
  creator = await agent.issueKey(["create", "search", "invoke"]);
}, 90_000);
afterAll(async () => {
  await agent?.dev.stop();
  await new Promise((resolve) => repoServer?.close(resolve));
});

const createTool = (body: unknown, key = creator) => agent.call("/create_tool", { body, key });

test("a tool that does not exist: requested, built, tested in the sandbox, registered, then run over HTTP and MCP", async () => {
  const before = await agent.call("/select_tool", { body: { tool_id: "text_summarize", params: { text: "x" } }, key: creator });
  expect((await before.json()).error.code).toBe("NOT_FOUND");

  const started = Date.now();
  const submitted = await createTool({ description: "帮我创建一个文本摘要工具", task_spec: "支持中英文，最大长度 500 字" });
  expect(submitted.status).toBe(202);
  const { task_id, status, tracking } = await submitted.json();
  expect(task_id).toMatch(/^create_[0-9a-f]{12}$/);
  expect(status).toBe("pending");
  expect(tracking).toBe(`GET /tasks/${task_id}`);

  const task = await waitForTask(agent, creator, task_id);
  const elapsed = Date.now() - started;
  expect(task).toMatchObject({
    status: "completed",
    kind: "build_tool",
    tool_id: "text_summarize",
    model: "offline-demo-coding",
    error: null,
  });
  expect(task.result).toMatchObject({ outcome: "completed", tool_id: "text_summarize", version: 1 });
  const used = task.log.filter((e: any) => e.kind === "TOOL_USE").map((e: any) => e.tool);
  expect(used).toEqual(["write_file", "write_file", "run_tests", "register_tool"]);
  const kinds = task.log.map((e: any) => e.kind);
  expect(kinds[0]).toBe("MESSAGE"); // the tool_request that started it
  expect(kinds).toEqual(expect.arrayContaining(["TOOL_RESULT", "DONE", "COST"]));
  const testRun = task.log.find((e: any) => e.kind === "TOOL_RESULT" && e.tool === "run_tests");
  expect(testRun.output).toMatchObject({ status: "passed", passed: 3, failed: 0 });
  console.log(`[tasks] demo build: ${elapsed} ms from request to completed, ${task.steps} model steps`);

  const run = await agent.call("/select_tool", {
    body: { tool_id: "text_summarize", params: { text: "今天天气很好。我们去公园散步。然后回家吃饭。", max_chars: 15 } },
    key: creator,
  });
  expect(await run.json()).toMatchObject({ status: "success", result: { summary: "今天天气很好。我们去公园散步。", sentences_kept: 2 } });

  const client = new Client({ name: "tasks-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${agent.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${creator}` } } }),
  );
  try {
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === "text_summarize")?.inputSchema).toMatchObject({ required: ["text"] });
    const called = await client.callTool({ name: "text_summarize", arguments: { text: "One. Two. Three.", max_chars: 10 } });
    expect(called.structuredContent).toMatchObject({ summary: "One. Two." });
  } finally {
    await client.close();
  }

  // The router heard the coding side's tool_ready.
  await expect
    .poll(async () => (await waitForTask(agent, creator, task_id)).log.some((e: any) => e.type === "tool_ready"), { timeout: 10_000 })
    .toBe(true);
}, 120_000);

test("/agent/chat: asked for a tool nobody has, it starts a creation task for a key that may create", async () => {
  const chat = async (message: string, key: string) => (await agent.call("/agent/chat", { body: { message }, key })).json();
  const offered = await chat("create a tool that reverses text", agent.keys.search);
  expect(offered).toMatchObject({ match: "none", task_id: null });
  expect(offered.next_steps.join(" ")).toContain("POST /create_tool");

  const started = await chat("create a tool that reverses text", creator);
  expect(started).toMatchObject({ match: "none", reply: expect.stringMatching(/^Submitted a task to create this tool/) });
  expect(started.task_id).toMatch(/^create_/);
  expect(started.next_steps[0]).toBe(`GET /tasks/${started.task_id} shows its progress and, once completed, the new tool_id`);
  expect(await waitForTask(agent, creator, started.task_id)).toMatchObject({ status: "completed", tool_id: "reverse_text" });

  // Now the tool exists: the same request finds it instead of building another.
  const found = await chat("create a tool that reverses text", creator);
  expect(found).toMatchObject({ match: "fuzzy", task_id: null });
  expect(found.tools[0].tool_id).toBe("reverse_text");
  const zh = await chat("帮我创建一个文本摘要工具", creator); // built by the first test
  expect(zh).toMatchObject({ match: "fuzzy", task_id: null });
  expect(zh.tools[0].tool_id).toBe("text_summarize");

  // In Chinese too: nothing makes URL slugs yet, so one is built.
  const zhStarted = await chat("帮我创建一个生成网址别名的工具", creator);
  expect(zhStarted).toMatchObject({ match: "none", reply: "已提交工具创建任务，通常几秒到几分钟完成。" });
  expect(zhStarted.next_steps[0]).toBe(`用 GET /tasks/${zhStarted.task_id} 查询进度，完成后可得到新工具的 tool_id`);
  expect(await waitForTask(agent, creator, zhStarted.task_id)).toMatchObject({ status: "completed", tool_id: "slugify" });
}, 90_000);

test("tasks belong to the key that asked; the create scope is needed; bad requests are refused whole", async () => {
  const { task_id } = await (await createTool({ description: "a tool that reverses text" })).json();
  const stranger = await agent.issueKey(["create"]);
  expect((await agent.call(`/tasks/${task_id}`, { key: stranger })).status).toBe(404);
  expect((await agent.call(`/tasks/${task_id}`)).status).toBe(200); // admin
  expect((await createTool({ description: "anything" }, agent.keys.invoke)).status).toBe(403);

  const bad = await createTool({ description: "", task_spec: { type: "github_deploy", repo_url: "ftp://example.com/x" }, extra: 1 });
  expect(bad.status).toBe(400);
  expect((await bad.json()).error.code).toBe("INVALID_REQUEST");
  expect((await agent.call("/tasks/create_nothex", { key: creator })).status).toBe(400);
  expect((await agent.call("/tasks/create_0123456789ab", { key: creator })).status).toBe(404);
  await waitForTask(agent, creator, task_id);
}, 60_000);

test("a key may have only a few tasks open at once; one more is refused until they end", async () => {
  const busy = await agent.issueKey(["create"]);
  const submitted = await Promise.all([1, 2, 3].map((n) => createTool({ description: `translate dolphin song ${n}` }, busy)));
  expect(submitted.map((r) => r.status)).toEqual([202, 202, 202]);
  const refused = await createTool({ description: "one more" }, busy);
  expect(refused.status).toBe(429);
  expect((await refused.json()).error).toMatchObject({ code: "RATE_LIMITED", limit: 3 });
  for (const response of submitted) await waitForTask(agent, busy, (await response.json()).task_id);
  expect((await createTool({ description: "after they ended" }, busy)).status).toBe(202);
}, 60_000);

test("the watchdog starts a task nobody started (its request lost) and fails one that stopped too often", async () => {
  const insert = (id: string, attempts: number) =>
    agent.sql(
      `insert into tool_agent.tasks (task_id, kind, description, task_spec, requested_by, attempts, updated_at)
       values ($1, 'build_tool', 'make a url slug', '{"type": "build_tool"}', 'key:watchdog-test', $2, now() - interval '1 hour')`,
      [id, attempts],
    );
  await insert("create_00000000aaaa", 0);
  await insert("create_00000000bbbb", 2);
  await agent.runScheduled();
  const [given] = await agent.sql("select status, error from tool_agent.tasks where task_id = 'create_00000000bbbb'");
  expect(given).toMatchObject({ status: "failed", error: "the task stopped making progress (no progress for 900 s) after 2 restarts" });
  await expect
    .poll(async () => (await agent.sql("select status, attempts from tool_agent.tasks where task_id = 'create_00000000aaaa'"))[0], {
      timeout: 20_000,
    })
    .toMatchObject({ status: "completed", attempts: 1 });
}, 60_000);

test("a description the demo model has no template for fails with the reason, and registers nothing", async () => {
  const { task_id } = await (await createTool({ description: "translate Klingon poetry into SQL" })).json();
  const task = await waitForTask(agent, creator, task_id);
  expect(task).toMatchObject({ status: "failed", tool_id: null });
  expect(task.error).toMatch(/model finished without registering an active tool/);
  expect(task.log.find((e: any) => e.kind === "TEXT").text).toMatch(
    /^\[offline demo coding model\] I can only build these tools offline: text_summarize/,
  );
}, 60_000);

test("github_deploy: the repository archive is downloaded, unpacked into the workspace, tested and registered", async () => {
  const { task_id } = await (
    await createTool({ description: "deploy word flip", task_spec: { type: "github_deploy", repo_url: `${repoUrl}/word-flip.tar.gz` } })
  ).json();
  expect(task_id).toMatch(/^deploy_/);
  const task = await waitForTask(agent, creator, task_id);
  expect(task).toMatchObject({ status: "completed", tool_id: "word_flip" });
  const run = await agent.call("/select_tool", { body: { tool_id: "word_flip", params: { text: "a b c" } }, key: creator });
  expect((await run.json()).result).toEqual({ flipped: "c b a" });

  const missing = await createTool({
    description: "deploy nothing",
    task_spec: { type: "github_deploy", repo_url: `${repoUrl}/nope.tar.gz` },
  });
  const failed = await waitForTask(agent, creator, (await missing.json()).task_id);
  expect(failed).toMatchObject({ status: "failed" });
  expect(failed.error).toMatch(/HTTP 404/);
}, 90_000);

test("a tool failing its health checks is repaired by a task the health alert opened", async () => {
  const { task_id } = await (await createTool({ description: "compute the average of numbers" })).json();
  expect((await waitForTask(agent, creator, task_id)).status).toBe("completed");
  // Storage loses the module: the health check notices, and the alert opens a repair.
  await agent.sql("update tool_agent.tool_sources set host_dir = 'tools/number_stats/lost' where tool_id = 'number_stats'");
  await agent.sql(
    "update tool_agent.tool_routes set state = 'running', started_at = now(), last_used_at = now(), last_checked_at = null where tool_id = 'number_stats'",
  );
  await agent.runScheduled();
  const route = (await agent.sql("select state, last_error from tool_agent.tool_routes where tool_id = 'number_stats'"))[0]!;
  expect(route).toMatchObject({ state: "error", last_error: expect.stringContaining("missing from storage") });

  let repairId = "";
  await expect
    .poll(
      async () => {
        const rows = await agent.sql<{ task_id: string }>(
          "select task_id from tool_agent.tasks where kind = 'repair_tool' and tool_id = 'number_stats'",
        );
        repairId = rows[0]?.task_id ?? "";
        return rows.length;
      },
      { timeout: 15_000 },
    )
    .toBe(1);
  const repair = await waitForTask(agent, agent.keys.admin, repairId);
  expect(repair).toMatchObject({ status: "completed", kind: "repair_tool", tool_id: "number_stats" });
  expect(repair.result.version).toBe(2);
  expect(repair.log.find((e: any) => e.kind === "MESSAGE")).toMatchObject({ type: "health_alert", tool_id: "number_stats" });
  expect(repair.log.filter((e: any) => e.kind === "TOOL_USE").map((e: any) => e.tool)[0]).toBe("read_file"); // tool.json first

  const run = await agent.call("/select_tool", { body: { tool_id: "number_stats", params: { numbers: [1, 2, 3, 4] } }, key: creator });
  expect((await run.json()).result).toMatchObject({ mean: 2.5, median: 2.5 });
  // The repaired version's module is in storage again, so its next check passes.
  await agent.sql("update tool_agent.tool_routes set last_checked_at = null where tool_id = 'number_stats'");
  await agent.runScheduled();
  const after = (
    await agent.sql("select state, last_error, consecutive_failures from tool_agent.tool_routes where tool_id = 'number_stats'")
  )[0]!;
  expect(after).toMatchObject({ state: "running", last_error: null, consecutive_failures: 0 });
}, 120_000);
