// The registry over HTTP: who may do what, finding tools in any language and
// with typos, each tool's state, and registering, unregistering and destroying.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { registerSeedTools } from "../../../supabase/local/tool-agent-dev.ts";
import { type JsonResponse, localTool, startToolAgentDev, type ToolAgentDev } from "../../support/tool-agent-dev.ts";

let agent: ToolAgentDev;
beforeAll(async () => {
  agent = await startToolAgentDev();
  await registerSeedTools(agent.url, agent.keys.admin);
}, 90_000);
afterAll(() => agent?.dev.stop());

const search = async (body: Record<string, unknown>) => {
  const response = await agent.call("/search_tools", { body, key: agent.keys.search });
  expect(response.status).toBe(200);
  return (await response.json()) as { tools: { tool_id: string; [field: string]: unknown }[]; total: number };
};
const ids = (answer: { tools: { tool_id: string }[] }) => answer.tools.map((tool) => tool.tool_id);

describe("who may call", () => {
  test("no key, an unknown key, a revoked key: 401 with the reason", async () => {
    const none = (await fetch(`${agent.url}/search_tools`, { method: "POST", body: "{}" })) as JsonResponse;
    expect(none.status).toBe(401);
    expect((await none.json()).error).toMatchObject({ code: "UNAUTHENTICATED", reason: "missing" });
    const unknown = await agent.call("/search_tools", { body: {}, key: `ta_${"x".repeat(43)}` });
    expect((await unknown.json()).error).toMatchObject({ code: "UNAUTHENTICATED", reason: "invalid" });
    const revoked = await agent.issueKey(["search"]);
    await agent.sql("update tool_agent.api_keys set revoked_at = now() where key_prefix = $1 and key_hash is not null", [
      revoked.slice(0, 8),
    ]);
    expect((await agent.call("/search_tools", { body: {}, key: revoked })).status).toBe(401);
  });

  test("a flood of unknown keys is slowed down without database work; known keys still pass", async () => {
    for (const key of Object.values(agent.keys)) await (await agent.call("/search_tools", { body: {}, key })).body?.cancel();
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const random = `ta_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url")}`;
      const response = await agent.call("/search_tools", { body: {}, key: random });
      statuses.push(response.status);
      if (response.status === 429) {
        expect(response.headers.get("retry-after")).toBe("1");
        expect((await response.json()).error.code).toBe("RATE_LIMITED");
      } else {
        await response.body?.cancel();
      }
    }
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    // Keys already verified are not held up.
    expect((await agent.call("/search_tools", { body: {}, key: agent.keys.search })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // the budget refills for the tests after
  });

  test("each scope opens only its routes", async () => {
    const run = { tool_id: "unit_convert", params: { value: 1, from: "m", to: "cm" } };
    const searchOnly = await agent.call("/select_tool", { body: run, key: agent.keys.search });
    expect(searchOnly.status).toBe(403);
    expect((await searchOnly.json()).error).toMatchObject({ code: "FORBIDDEN", needed: "invoke" });
    expect((await agent.call("/select_tool", { body: run, key: agent.keys.invoke })).status).toBe(200);
    const register = await agent.call("/tools", { body: localTool("nope", "export default {}"), key: agent.keys.invoke });
    expect(register.status).toBe(403);
    expect((await agent.call("/tools/unit_convert", { method: "DELETE", key: agent.keys.invoke })).status).toBe(403);
  });

  test("health needs no key; an unknown route is a JSON 404", async () => {
    const health = (await fetch(`${agent.url}/health`)) as JsonResponse;
    expect(await health.json()).toMatchObject({ status: "ok", database: { ok: true } });
    const missing = await agent.call("/nowhere");
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe("NOT_FOUND");
  });
});

describe("search", () => {
  test("a Chinese keyword, a typo and a parameter name each find the tool", async () => {
    expect(ids(await search({ keyword: "单位" }))[0]).toBe("unit_convert");
    expect(ids(await search({ keyword: "统计" }))[0]).toBe("text_stats");
    expect(ids(await search({ keyword: "convertr" }))[0]).toBe("unit_convert");
    expect(ids(await search({ keyword: "fields" }))[0]).toBe("json_transform");
  });

  test("an exact tool_id or name ranks first", async () => {
    await agent.register(
      localTool("stats_helper", "export default { async fetch() { return Response.json({}); } };", {
        description: "text stats text stats text",
      }),
    );
    expect(ids(await search({ keyword: "text_stats" }))[0]).toBe("text_stats");
    expect(ids(await search({ keyword: "Unit converter 单位换算" }))[0]).toBe("unit_convert");
  });

  test("the contract's fields: params, required_params, backend_runtime, state", async () => {
    const [tool] = (await search({ keyword: "unit_convert" })).tools;
    expect(tool).toMatchObject({
      tool_id: "unit_convert",
      required_params: ["value", "from", "to"],
      backend_runtime: "local",
      endpoint_path: "/",
      http_method: "POST",
      pid: null,
      port: null,
    });
    expect(tool!.params).toContainEqual({
      name: "from",
      type: "string",
      description: "unit of value, e.g. km, lb, C, MiB",
      required: true,
    });
    expect(["stopped", "running"]).toContain(tool!.state);
  });

  test("category filters; no keyword lists active tools; inactive ones only when asked", async () => {
    expect(ids(await search({ category: "math" }))).toEqual(["unit_convert"]);
    await agent.register(localTool("dormant", "export default {}", { status: "inactive", category: "math", description: "converter" }));
    expect(ids(await search({ keyword: "converter" }))).not.toContain("dormant");
    expect(ids(await search({ keyword: "converter", include_inactive: true }))).toContain("dormant");
  });

  test("a hostile keyword is only text", async () => {
    for (const keyword of ["%", "_", "'; drop table tool_agent.tools; --", "\\", "a & | ! (", "<%"]) {
      const answer = await search({ keyword });
      expect(Array.isArray(answer.tools)).toBe(true);
    }
    expect(ids(await search({ keyword: "unit" }))).toContain("unit_convert");
  });
});

describe("state, start and stop", () => {
  test("start marks a tool running, stop marks it stopped; /tools/status shows ToolRoute", async () => {
    const started = await agent.call("/tools/text_stats/start", { method: "POST", key: agent.keys.invoke });
    expect(await started.json()).toEqual({ tool_id: "text_stats", state: "running", port: null });
    let status = await (await agent.call("/tools/status", { key: agent.keys.search })).json();
    const entry = status.tools.find((t: { tool_id: string }) => t.tool_id === "text_stats");
    expect(entry).toMatchObject({
      state: "running",
      active_source: 0,
      sources: [{ type: "local", host_dir: expect.stringMatching(/^tools\/text_stats\/v1-[0-9a-f]{8}$/) }],
    });
    expect(entry.started_at).not.toBeNull();
    const stopped = await agent.call("/tools/text_stats/stop", { method: "POST", key: agent.keys.invoke });
    expect(await stopped.json()).toEqual({ tool_id: "text_stats", state: "stopped", port: null });
    status = await (await agent.call("/tools/status")).json();
    expect(status.tools.find((t: { tool_id: string }) => t.tool_id === "text_stats").state).toBe("stopped");
    // A call starts a stopped tool again.
    await agent.call("/select_tool", { body: { tool_id: "text_stats", params: { text: "a" } } });
    expect((await (await agent.call("/tools/text_stats")).json()).state).toBe("running");
  });

  test("a tool whose source is docker cannot start here, and says why", async () => {
    await agent.register({ tool_id: "boxed", name: "Boxed", sources: [{ type: "docker", image: "tool:1", internal_port: 8080 }] });
    const answer = await (await agent.call("/tools/boxed/start", { method: "POST" })).json();
    expect(answer).toMatchObject({ tool_id: "boxed", state: "error" });
    expect(answer.last_error).toMatch(/container runtime/);
  });

  test("start and stop of an unknown tool are 404", async () => {
    expect((await agent.call("/tools/ghost/start", { method: "POST" })).status).toBe(404);
    expect((await agent.call("/tools/Bad%20Id/stop", { method: "POST" })).status).toBe(400);
  });
});

describe("registering", () => {
  test("a module that does not parse is refused with its line and column; nothing is stored", async () => {
    const response = await agent.call("/tools", { body: localTool("broken", "export default {\n  async fetch() { return 1 +; }\n};") });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatchObject({ code: "INVALID_REQUEST", line: 2 });
    expect((await agent.call("/tools/broken")).status).toBe(404);
  });

  test("two registrations of one new tool at once: one wins, the other is told to retry", async () => {
    const module = (n: number) => `export default { async fetch() { return Response.json({ n: ${n} }); } };`;
    const answers = await Promise.all([1, 2, 3].map((n) => agent.call("/tools", { body: localTool("raced", module(n)) })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    for (const answer of answers.filter((a) => a.status !== 201)) {
      expect(answer.status).toBe(409);
      expect((await answer.json()).error.code).toBe("CONFLICT");
    }
    // The stored version runs the module its own registration wrote.
    const winners = await Promise.all(answers.filter((a) => a.status === 201).map((a) => a.json()));
    const last = winners.sort((a, b) => b.version - a.version)[0];
    const run = await (await agent.call("/select_tool", { body: { tool_id: "raced" } })).json();
    expect(run.status).toBe("success");
    const [row] = await agent.sql<{ version: number }>("select version from tool_agent.tools where tool_id = 'raced'");
    expect(row!.version).toBe(last.version);
  });

  test("a request body over the limit is refused before it is read", async () => {
    const response = await agent.call("/tools", { body: localTool("huge", `export default {}; // ${"x".repeat(5 * 1024 * 1024)}`) });
    expect(response.status).toBe(413);
    expect((await response.json()).error.code).toBe("PAYLOAD_TOO_LARGE");
  });

  test("bad fields are named; unknown fields are refused", async () => {
    const response = await agent.call("/tools", { body: { tool_id: "Has Spaces", name: "", sources: [], surprise: 1 } });
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error.code).toBe("INVALID_REQUEST");
    const fields = error.problems.map((p: { field: string }) => p.field);
    expect(fields).toEqual(expect.arrayContaining(["tool_id", "name", "sources"]));
  });

  test("unregister removes it from the registry; destroy also deletes its code and reports what it cleaned", async () => {
    const module = "export default { async fetch() { return Response.json({ ok: true }); } };";
    await agent.register(localTool("short_lived", module));
    await agent.register(localTool("short_lived", module)); // version 2: two stored modules
    await agent.call("/select_tool", { body: { tool_id: "short_lived" } });
    const destroyed = await (await agent.call("/tools/short_lived/destroy", { method: "POST" })).json();
    expect(destroyed).toEqual({
      tool_id: "short_lived",
      found: true,
      stopped: true,
      containers_destroyed: [],
      code_objects_deleted: 2,
      registry_removed: true,
    });
    expect((await agent.call("/tools/short_lived")).status).toBe(404);

    await agent.register(localTool("gone_soon", module));
    expect(await (await agent.call("/tools/gone_soon", { method: "DELETE" })).json()).toEqual({ tool_id: "gone_soon", removed: true });
    expect(await (await agent.call("/tools/gone_soon", { method: "DELETE" })).json()).toEqual({ tool_id: "gone_soon", removed: false });
    const rows = await agent.sql(
      "select 1 from tool_agent.tool_sources where tool_id = 'gone_soon' union all select 1 from tool_agent.tool_routes where tool_id = 'gone_soon'",
    );
    expect(rows).toEqual([]);
  });
});

test("the OpenAPI document has the contract's routes", async () => {
  const document = await ((await fetch(`${agent.url}/openapi.json`)) as JsonResponse).json();
  expect(Object.keys(document.paths).sort()).toEqual(
    expect.arrayContaining([
      "/health",
      "/search_tools",
      "/select_tool",
      "/tools/status",
      "/tools/{tool_id}/start",
      "/tools/{tool_id}/stop",
    ]),
  );
  expect((await fetch(`${agent.url}/docs`)).headers.get("content-type")).toContain("text/html");
});
