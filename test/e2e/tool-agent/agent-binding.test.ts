// The chat agent's way in: a Worker bound to the ToolAgentForAgent entrypoint (as the agent
// Worker's wrangler.toml binds it) acts for the user it names, with the search and invoke
// scopes only; the same header sent to the public URL earns nothing.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { registerSeedTools } from "../../../supabase/local/tool-agent-dev.ts";
import { localTool, startToolAgentDev, type ToolAgentDev } from "../../support/tool-agent-dev.ts";
import { startWranglerDev, type WranglerDev } from "../../support/wrangler-dev.ts";

const USER = "11111111-1111-4111-8111-111111111111";
const registry = mkdtempSync(join(tmpdir(), "tool-agent-registry-"));
let agent: ToolAgentDev;
let caller: WranglerDev;

beforeAll(async () => {
  agent = await startToolAgentDev({}, { registry });
  await registerSeedTools(agent.url, agent.keys.admin);
  await agent.register(
    localTool("paid", "export default { async fetch() { return Response.json({ ok: true }); } };", { cost_per_call_usd: 1 }),
  );
  caller = await startWranglerDev({
    config: "test/support/bound-caller/wrangler.toml",
    registry,
    plane: { plane: agent.dev.plane, keys: agent.dev.keys },
  });
}, 120_000);
afterAll(async () => {
  await caller?.stop();
  await agent?.dev.stop();
  rmSync(registry, { recursive: true, force: true });
});

const viaBinding = (path: string, body?: unknown, user: string | null = USER) =>
  fetch(`${caller.url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json", ...(user ? { "x-acting-user": user } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

test("over the binding the agent searches and runs tools for its user, and the ledger names the user", async () => {
  const search = await viaBinding("/search_tools", { keyword: "unit" });
  expect(search.status).toBe(200);
  expect(((await search.json()) as { tools: { tool_id: string }[] }).tools[0]!.tool_id).toBe("unit_convert");
  const run = await viaBinding("/select_tool", { tool_id: "paid" });
  expect(await run.json()).toMatchObject({ status: "success", result: { ok: true } });
  const [entry] = await agent.sql<{ caller: string }>("select caller from tool_agent.cost_ledger where tool_id = 'paid'");
  expect(entry!.caller).toBe(`user:${USER}`);
});

test("the binding never grants admin, and names a user or is refused", async () => {
  const register = await viaBinding("/tools", localTool("sneaky", "export default {}"));
  expect(register.status).toBe(403);
  expect(((await register.json()) as { error: { code: string } }).error.code).toBe("FORBIDDEN");
  for (const user of [null, "not-a-uuid"]) {
    const response = await viaBinding("/search_tools", {}, user);
    expect(response.status).toBe(401);
  }
});

test("the same header on the public URL is not trusted", async () => {
  const response = await fetch(`${agent.url}/search_tools`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-acting-user": USER },
    body: "{}",
  });
  expect(response.status).toBe(401);
});
