// docker sources through the container adapter (one ToolContainer Durable Object per tool),
// against a stand-in that serves what the container would: start on first use, reuse, stop,
// ContainerInfo rows, health checks that notice a crash, and fallback when an image is missing.
import { afterAll, beforeAll, expect, test } from "vitest";
import { type ContainerStandin, startContainerStandin } from "../../support/container-standin.ts";
import { startToolAgentDev, type ToolAgentDev } from "../../support/tool-agent-dev.ts";

let agent: ToolAgentDev;
let standin: ContainerStandin;

beforeAll(async () => {
  standin = await startContainerStandin({
    "tools/echo:1": ({ method, path, body, containerId }) => ({
      json: { method, path, got: body ? JSON.parse(body) : null, container: containerId },
    }),
  });
  agent = await startToolAgentDev({ TOOL_AGENT_CONTAINER_STANDIN_URL: standin.url });
  await agent.register({
    tool_id: "boxed_echo",
    name: "Boxed echo",
    input_schema: { type: "object", properties: { text: { type: "string" } } },
    sources: [{ type: "docker", image: "tools/echo:1", internal_port: 8080, endpoint_path: "/run" }],
  });
}, 90_000);
afterAll(async () => {
  await agent?.dev.stop();
  await standin?.close();
});

const select = (tool_id: string, params: Record<string, unknown> = {}) => agent.call("/select_tool", { body: { tool_id, params } });
const containerRows = (toolId: string) =>
  agent.sql<{ container_id: string; status: string; image: string; port_mapping: unknown; mem_limit: string; last_accessed: Date | null }>(
    "select container_id, status, image, port_mapping, mem_limit, last_accessed from tool_agent.containers where tool_id = $1 order by created_at",
    [toolId],
  );

test("the first call starts the container, later calls reuse it, and ContainerInfo records it", async () => {
  const first = await (await select("boxed_echo", { text: "hi" })).json();
  expect(first).toMatchObject({
    status: "success",
    result: { method: "POST", path: "/run", got: { text: "hi" } },
    source: { type: "docker" },
  });
  const second = await (await select("boxed_echo", { text: "again" })).json();
  expect(second.result.container).toBe(first.result.container);
  expect(standin.started).toEqual([first.result.container]);
  const rows = await containerRows("boxed_echo");
  expect(rows).toEqual([
    expect.objectContaining({
      container_id: first.result.container,
      status: "running",
      image: "tools/echo:1",
      port_mapping: { "8080": 8080 },
      mem_limit: "1g",
    }),
  ]);
  expect(rows[0]!.last_accessed).not.toBeNull();
});

test("stop stops the container and records it destroyed; start starts a new one", async () => {
  const [before] = await containerRows("boxed_echo");
  expect(await (await agent.call("/tools/boxed_echo/stop", { method: "POST" })).json()).toEqual({
    tool_id: "boxed_echo",
    state: "stopped",
    port: null,
  });
  expect(standin.running.size).toBe(0);
  expect((await containerRows("boxed_echo")).find((r) => r.container_id === before!.container_id)?.status).toBe("destroyed");

  const started = await (await agent.call("/tools/boxed_echo/start", { method: "POST" })).json();
  expect(started).toMatchObject({ tool_id: "boxed_echo", state: "running", container_id: expect.stringMatching(/^boxed_echo-/) });
  expect([...standin.running.keys()]).toEqual([started.container_id]);
});

test("a health check notices a crashed container; calling it again starts a fresh one", async () => {
  await agent.runScheduled();
  let route = (await agent.sql<Record<string, any>>("select * from tool_agent.tool_routes where tool_id = 'boxed_echo'"))[0]!;
  expect(route.last_healthy_at).not.toBeNull();

  standin.crash([...standin.running.keys()][0]!);
  await agent.sql("update tool_agent.tool_routes set last_checked_at = now() - interval '2 minutes' where tool_id = 'boxed_echo'");
  await agent.runScheduled();
  route = (await agent.sql<Record<string, any>>("select * from tool_agent.tool_routes where tool_id = 'boxed_echo'"))[0]!;
  expect(route).toMatchObject({ state: "error", last_error: "health check failed: the container is not running", consecutive_failures: 1 });

  const body = await (await select("boxed_echo", { text: "back" })).json();
  expect(body.status).toBe("success");
  expect(standin.started.length).toBe(3);
});

test("an image the runtime cannot start falls back to the next source", async () => {
  await agent.register({
    tool_id: "boxed_missing",
    name: "Boxed missing",
    sources: [
      { type: "docker", image: "tools/nowhere:1", internal_port: 8080 },
      { type: "local", module: "export default { async fetch() { return Response.json({ served_by: 'local' }); } };" },
    ],
  });
  const body = await (await select("boxed_missing")).json();
  expect(body).toMatchObject({ status: "success", result: { served_by: "local" }, source: { position: 1 } });
});

test("destroy stops the container and reports it", async () => {
  const running = [...standin.running.keys()];
  expect(running.length).toBe(1);
  const report = await (await agent.call("/tools/boxed_echo/destroy", { method: "POST" })).json();
  expect(report).toMatchObject({ tool_id: "boxed_echo", found: true, containers_destroyed: running, registry_removed: true });
  expect(standin.running.size).toBe(0);
});
