// The Cron Trigger's maintenance through the real scheduled handler (wrangler dev
// --test-scheduled): idle tools stop, the least recently used beyond the hot limit are evicted,
// and health checks record failures and recoveries in the state.
import { afterAll, beforeAll, expect, test } from "vitest";
import { type EchoServer, startEchoServer } from "../../support/echo-server.ts";
import { localTool, startToolAgentDev, type ToolAgentDev } from "../../support/tool-agent-dev.ts";

let agent: ToolAgentDev;
let remote: EchoServer;
let remoteDown = true;
const ok = "export default { async fetch() { return Response.json({ ok: true }); } };";

beforeAll(async () => {
  remote = await startEchoServer(() => (remoteDown ? { status: 503, text: "down" } : { json: { ok: true } }));
  agent = await startToolAgentDev({ TOOL_AGENT_HOT_TOOL_MAX_CONTAINERS: "2", TOOL_AGENT_COLD_TOOL_IDLE_TIMEOUT_S: "300" });
  for (const id of ["hot_a", "hot_b", "hot_c", "sleepy"]) await agent.register(localTool(id, ok));
  await agent.register({
    tool_id: "flaky_remote",
    name: "Flaky remote",
    sources: [{ type: "remote", remote_url: remote.url, remote_path: "/run" }],
  });
}, 90_000);
afterAll(async () => {
  await agent?.dev.stop();
  await remote?.close();
});

const state = async (id: string) =>
  (await agent.sql<Record<string, any>>("select * from tool_agent.tool_routes where tool_id = $1", [id]))[0]!;
const setRoute = (id: string, sql: string) => agent.sql(`update tool_agent.tool_routes set ${sql} where tool_id = $1`, [id]);

test("idle tools stop; beyond the hot limit the least recently used are evicted; the rest are checked", async () => {
  await setRoute("sleepy", "state = 'running', started_at = now() - interval '2 hours', last_used_at = now() - interval '1 hour'");
  await setRoute("hot_a", "state = 'running', started_at = now() - interval '1 minute', last_used_at = now() - interval '30 seconds'");
  await setRoute("hot_b", "state = 'running', started_at = now() - interval '1 minute', last_used_at = now() - interval '20 seconds'");
  await setRoute("hot_c", "state = 'running', started_at = now() - interval '1 minute', last_used_at = now() - interval '10 seconds'");
  await agent.runScheduled();
  expect((await state("sleepy")).state).toBe("stopped");
  expect((await state("hot_a")).state).toBe("stopped"); // least recently used of three, limit two
  for (const id of ["hot_b", "hot_c"]) {
    const route = await state(id);
    expect(route.state).toBe("running");
    expect(route.last_healthy_at).not.toBeNull(); // its module is in storage
  }
});

test("a failing health check records the error; a later passing one brings the tool back", async () => {
  await agent.call("/tools/flaky_remote/start", { method: "POST" });
  await agent.runScheduled();
  let route = await state("flaky_remote");
  expect(route).toMatchObject({ state: "error", consecutive_failures: 1, last_error: "health check failed: HTTP 503" });

  // Not checked again before the interval has passed.
  await agent.runScheduled();
  expect((await state("flaky_remote")).consecutive_failures).toBe(1);

  remoteDown = false;
  await setRoute("flaky_remote", "last_checked_at = now() - interval '2 minutes'");
  await agent.runScheduled();
  route = await state("flaky_remote");
  expect(route).toMatchObject({ state: "running", consecutive_failures: 0, last_error: null });
  expect(route.last_healthy_at).not.toBeNull();
});
