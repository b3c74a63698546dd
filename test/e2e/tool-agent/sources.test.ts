// Each source kind really running a tool: local modules in the sandbox (workerd's Dynamic Worker
// Loader), remote APIs on a local HTTP server, fallback between them, and what a call refuses
// before and after the tool runs.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { registerSeedTools } from "../../../supabase/local/tool-agent-dev.ts";
import { type EchoServer, startEchoServer } from "../../support/echo-server.ts";
import { localTool, startToolAgentDev, type ToolAgentDev } from "../../support/tool-agent-dev.ts";

let agent: ToolAgentDev;
let remote: EchoServer;
const REMOTE_KEY = "sk-remote-secret-0123456789abcdef";

beforeAll(async () => {
  remote = await startEchoServer((request) => {
    if (request.path.startsWith("/v1/fail")) return { status: 503, json: { error: { message: "overloaded" } } };
    if (request.path.startsWith("/v1/refuse")) return { status: 422, json: { error: { message: "text is too short" } } };
    if (request.path.startsWith("/v1/slow")) return { json: { late: true }, delayMs: 3_000 };
    return { json: { echoed: JSON.parse(request.body || "{}"), path: request.path } };
  });
  agent = await startToolAgentDev({ TOOL_AGENT_LOCAL_STEP_LIMIT: "1000000" });
  await registerSeedTools(agent.url, agent.keys.admin);
}, 90_000);
afterAll(async () => {
  await agent?.dev.stop();
  await remote?.close();
});

const select = (tool_id: string, params: Record<string, unknown> = {}) =>
  agent.call("/select_tool", { body: { tool_id, params }, key: agent.keys.invoke });

describe("local tools run in the sandbox", () => {
  test("the seeded tools answer their results", async () => {
    const stats = await select("text_stats", { text: "Hello world. 你好世界！\nBye." });
    expect(stats.status).toBe(200);
    expect(await stats.json()).toMatchObject({
      status: "success",
      error: null,
      result: { words: 4, lines: 2, sentences: 3, cjk_characters: 4 },
      source: { position: 0, type: "local" },
    });
    const picked = await select("json_transform", { data: [{ a: { b: [1, 2] } }, { a: null }], fields: { second: "a.b.1" } });
    expect((await picked.json()).result).toEqual({ records: [{ second: 2 }, { second: null }], count: 2 });
    const converted = await select("unit_convert", { value: 100, from: "C", to: "F" });
    expect((await converted.json()).result).toEqual({ value: 212, unit: "F", kind: "temperature" });
  });

  test("a tool that refuses (4xx) is TOOL_FAILED with its own words", async () => {
    const response = await select("unit_convert", { value: 1, from: "kg", to: "km" });
    expect(response.status).toBe(502);
    const body = await response.json();
    expect(body).toMatchObject({ status: "error", result: null, error: { code: "TOOL_FAILED" } });
    expect(body.error.message).toContain("cannot convert kg to km");
  });

  test("a tool without declared network cannot reach it; with it, it can", async () => {
    const module = `export default { async fetch() { const r = await fetch("${remote.url}/v1/from-sandbox"); return Response.json({ status: r.status }); } };`;
    await agent.register(localTool("net_closed", module));
    await agent.register({ ...localTool("net_open", module), sources: [{ type: "local", module, allow_network: true }] });
    const before = remote.requests.length;
    const closed = await (await select("net_closed")).json();
    expect(closed.error.code).toBe("TOOL_FAILED");
    expect(closed.error.message).toMatch(/not permitted to access the internet/);
    expect(remote.requests.length).toBe(before);
    const open = await (await select("net_open")).json();
    expect(open).toMatchObject({ status: "success", result: { status: 200 } });
    expect(remote.requests.at(-1)?.path).toBe("/v1/from-sandbox");
  });

  test("a tool that loops forever is stopped, even one that catches the stop, and the Worker keeps serving", async () => {
    await agent.register(localTool("spin", "export default { async fetch() { while (true) {} } };"));
    await agent.register(
      localTool("spin_and_catch", "export default { async fetch() { for (;;) { try { while (true) {} } catch (e) {} } } };"),
    );
    for (const tool of ["spin", "spin_and_catch"]) {
      const started = Date.now();
      const body = await (await select(tool)).json();
      expect(body.error.code, tool).toBe("TOOL_FAILED");
      expect(body.error.message).toMatch(/step limit/);
      expect(Date.now() - started).toBeLessThan(10_000);
    }
    const after = await select("unit_convert", { value: 1, from: "km", to: "m" });
    expect((await after.json()).result.value).toBe(1000);
  });

  test("a tool that sends its headers and never ends its body is cut at the deadline", async () => {
    await agent.register({
      ...localTool(
        "endless_body",
        "export default { async fetch() { return new Response(new ReadableStream({ pull() { return new Promise((r) => setTimeout(r, 600000)); } }), { headers: { 'content-type': 'application/json' } }); } };",
      ),
      sources: [
        {
          type: "local",
          module:
            "export default { async fetch() { return new Response(new ReadableStream({ pull() { return new Promise((r) => setTimeout(r, 600000)); } }), { headers: { 'content-type': 'application/json' } }); } };",
          timeout_ms: 500,
        },
      ],
    });
    const started = Date.now();
    const body = await (await select("endless_body")).json();
    expect(body.error).toMatchObject({ code: "TOOL_UNAVAILABLE", message: "the local tool did not answer within 500 ms" });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  test("registering again runs the new version's code, not a cached sandbox of the old one", async () => {
    await agent.register(localTool("versioned", "export default { async fetch() { return Response.json({ v: 1 }); } };"));
    expect((await (await select("versioned")).json()).result).toEqual({ v: 1 });
    await agent.register(localTool("versioned", "export default { async fetch() { return Response.json({ v: 2 }); } };"));
    expect((await (await select("versioned")).json()).result).toEqual({ v: 2 });
    const [row] = await agent.sql<{ version: number }>("select version from tool_agent.tools where tool_id = 'versioned'");
    expect(row!.version).toBe(2);
  });
});

describe("streaming (stream: true, tools with stream_support)", () => {
  const ticker = (ticks: number, everyMs: number) => `export default { async fetch() {
    let n = 0;
    const body = new ReadableStream({ async pull(controller) {
      await new Promise((r) => setTimeout(r, ${everyMs}));
      n += 1;
      controller.enqueue(new TextEncoder().encode("data: " + n + "\\n\\n"));
      if (n === ${ticks}) controller.close();
    } });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  } };`;
  const streamed = (tool_id: string, stream: boolean) =>
    fetch(`${agent.url}/select_tool`, {
      method: "POST",
      headers: { authorization: `Bearer ${agent.keys.invoke}`, "content-type": "application/json" },
      body: JSON.stringify({ tool_id, params: {}, stream }),
    });

  test("the tool's own body comes through as it streams, with its content type and where it ran", async () => {
    await agent.register(localTool("ticker", ticker(3, 50), { stream_support: true }));
    const response = await streamed("ticker", true);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("x-tool-source")).toBe("0:local");
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("data: 1\n\n"); // the first tick, before the others exist
    let rest = "";
    for (let next = await reader.read(); !next.done; next = await reader.read()) rest += new TextDecoder().decode(next.value);
    expect(rest).toBe("data: 2\n\ndata: 3\n\n");
  });

  test("an event stream is cut at the source's deadline with a last error event, and the Worker keeps serving", async () => {
    await agent.register({
      ...localTool("slow_ticker", ticker(10, 200), { stream_support: true }),
      sources: [{ type: "local", module: ticker(10, 200), timeout_ms: 700 }],
    });
    const response = await streamed("slow_ticker", true);
    const text = await response.text(); // ends cleanly: an error here fails the test
    const ticks = text.match(/^data: \d+$/gm)?.length ?? 0;
    expect(ticks).toBeGreaterThan(0);
    expect(ticks).toBeLessThan(10);
    expect(
      text.endsWith('event: error\ndata: {"code":"TOOL_UNAVAILABLE","message":"the tool\'s stream ran past its deadline (700 ms)"}\n\n'),
    ).toBe(true);
    const after = await select("unit_convert", { value: 1, from: "km", to: "m" });
    expect(after.status).toBe(200);
  });

  test("without stream_support, stream: true answers the JSON envelope as usual", async () => {
    const response = await streamed("unit_convert", true);
    expect(response.headers.get("content-type")).toContain("application/json");
    await response.body?.cancel();
    const plain = await (
      await fetch(`${agent.url}/select_tool`, {
        method: "POST",
        headers: { authorization: `Bearer ${agent.keys.invoke}`, "content-type": "application/json" },
        body: JSON.stringify({ tool_id: "text_stats", params: { text: "a b" }, stream: true }),
      })
    ).json();
    expect(plain).toMatchObject({ status: "success", result: { words: 2 } });
  });
});

describe("what a call refuses", () => {
  test("params that do not match the input schema: every field at fault, nothing run", async () => {
    const lastUsed = async () =>
      (
        await agent.sql<{ last_used_at: Date | null }>("select last_used_at from tool_agent.tool_routes where tool_id = 'unit_convert'")
      )[0]?.last_used_at?.getTime();
    const before = await lastUsed();
    const response = await select("unit_convert", { value: "ten", to: 5, extra: true });
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error.code).toBe("INVALID_PARAMS");
    expect(error.missing_fields).toEqual(["from"]);
    expect(error.invalid_fields.map((f: { field: string }) => f.field).sort()).toEqual(["to", "value"]);
    expect(error.unknown_fields).toEqual(["extra"]);
    expect(await lastUsed()).toBe(before);
  });

  test("a result that does not match the output schema is INVALID_RESULT", async () => {
    await agent.register(
      localTool("liar", "export default { async fetch() { return Response.json({ count: 'many' }); } };", {
        output_schema: { type: "object", properties: { count: { type: "integer" } }, required: ["count"] },
      }),
    );
    const response = await select("liar");
    expect(response.status).toBe(502);
    const { error } = await response.json();
    expect(error.code).toBe("INVALID_RESULT");
    expect(error.invalid_fields[0].field).toBe("count");
  });

  test("unknown and inactive tools", async () => {
    expect((await (await select("no_such_tool")).json()).error.code).toBe("NOT_FOUND");
    await agent.register(localTool("paused", "export default { async fetch() { return Response.json({}); } };", { status: "inactive" }));
    const response = await select("paused");
    expect(response.status).toBe(409);
    expect((await response.json()).error).toMatchObject({ code: "TOOL_INACTIVE", tool_status: "inactive" });
  });
});

describe("remote tools", () => {
  test("the call carries the decrypted key; every answer, row and log line shows it masked or not at all", async () => {
    await agent.register({
      tool_id: "remote_echo",
      name: "Remote echo",
      input_schema: { type: "object", properties: { text: { type: "string" } } },
      sources: [{ type: "remote", remote_url: remote.url, remote_path: "/v1/echo", remote_api_key: REMOTE_KEY }],
    });
    const selectText = await (await select("remote_echo", { text: "hi" })).text();
    const body = JSON.parse(selectText);
    expect(body).toMatchObject({ status: "success", result: { echoed: { text: "hi" }, path: "/v1/echo" }, source: { type: "remote" } });
    expect(remote.requests.at(-1)?.headers.authorization).toBe(`Bearer ${REMOTE_KEY}`);

    await agent.register({
      tool_id: "remote_keyed_refusal",
      name: "Remote keyed refusal",
      sources: [{ type: "remote", remote_url: remote.url, remote_path: "/v1/refuse", remote_api_key: REMOTE_KEY }],
    });
    const answers = [
      await (await agent.call("/tools/remote_echo")).text(),
      selectText,
      await (await select("remote_keyed_refusal")).text(),
      await (await agent.call("/tools/status")).text(),
      await (await agent.call("/search_tools", { body: { keyword: "remote" } })).text(),
    ];
    for (const answer of answers) expect(answer).not.toContain(REMOTE_KEY.slice(3, 20));
    expect(JSON.parse(answers[0]!).remote_api_key).toBe("sk-***");
    // Every row of every Tool Agent table that could hold it, as text.
    const rows = await agent.sql<{ row: string }>(
      `select row_to_json(s)::text as row from tool_agent.tool_sources s
       union all select row_to_json(r)::text from tool_agent.tool_routes r
       union all select row_to_json(c)::text from tool_agent.containers c
       union all select row_to_json(a)::text from tool_agent.approvals a`,
    );
    for (const { row } of rows) expect(row).not.toContain(REMOTE_KEY.slice(3, 20));
    expect(rows.find(({ row }) => row.includes('"tool_id":"remote_echo"') && row.includes("remote_api_key_masked"))?.row).toContain(
      '"remote_api_key_masked":"sk-***"',
    );
    expect(agent.dev.output()).not.toContain(REMOTE_KEY.slice(3, 20));
  });

  test("a remote that refuses (4xx) is final; one that is down or slow is TOOL_UNAVAILABLE", async () => {
    const register = (tool_id: string, path: string, extra: Record<string, unknown> = {}) =>
      agent.register({ tool_id, name: tool_id, sources: [{ type: "remote", remote_url: remote.url, remote_path: path, ...extra }] });
    await register("remote_refuse", "/v1/refuse");
    await register("remote_fail", "/v1/fail");
    await register("remote_slow", "/v1/slow", { timeout_ms: 500 });
    const refused = await select("remote_refuse");
    expect(refused.status).toBe(502);
    expect((await refused.json()).error).toMatchObject({ code: "TOOL_FAILED", message: "the tool answered HTTP 422: text is too short" });
    const failed = await select("remote_fail");
    expect(failed.status).toBe(503);
    expect((await failed.json()).error.code).toBe("TOOL_UNAVAILABLE");
    const started = Date.now();
    const slow = await (await select("remote_slow")).json();
    expect(slow.error).toMatchObject({ code: "TOOL_UNAVAILABLE", message: "the remote tool did not answer within 500 ms" });
    expect(Date.now() - started).toBeLessThan(2_500);
  });
});

describe("fallback across sources", () => {
  test("when the active source is down the next one serves, and the state records it", async () => {
    await agent.register({
      tool_id: "with_fallback",
      name: "With fallback",
      sources: [
        { type: "remote", remote_url: remote.url, remote_path: "/v1/fail" },
        { type: "local", module: "export default { async fetch() { return Response.json({ served_by: 'local' }); } };" },
      ],
    });
    const body = await (await select("with_fallback")).json();
    expect(body).toMatchObject({ status: "success", result: { served_by: "local" }, source: { position: 1, type: "local" } });
    const status = await (await agent.call("/tools/with_fallback")).json();
    expect(status.runtime).toMatchObject({ active_source: 1, state: "running", last_error: null });
    // The next call starts at the source that worked.
    const before = remote.requests.length;
    await select("with_fallback");
    expect(remote.requests.length).toBe(before);
  });

  test("when every source fails, each attempt is listed and the state is error", async () => {
    await agent.register({
      tool_id: "all_down",
      name: "All down",
      sources: [
        { type: "remote", remote_url: remote.url, remote_path: "/v1/fail" },
        { type: "docker", image: "tool:latest", internal_port: 8080 },
      ],
    });
    const body = await (await select("all_down")).json();
    expect(body.error.code).toBe("TOOL_UNAVAILABLE");
    expect(body.error.attempts.map((a: { type: string }) => a.type)).toEqual(["remote", "docker"]);
    const status = await (await agent.call("/tools/all_down")).json();
    expect(status.runtime.state).toBe("error");
    expect(status.runtime.last_error).toMatch(/no container runtime/);
  });
});
