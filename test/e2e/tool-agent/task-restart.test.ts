// A task survives a restart of the Worker: the coding agent's model call is in flight when
// `wrangler dev` stops. Local `wrangler dev` does not resume a Workflow stopped mid-step, so
// after the restart the task sits `running` with no progress; the watchdog (the Cron Trigger)
// starts it again as a new Workflow instance on the same workspace, and it completes. The model
// is a small OpenAI-compatible server that holds requests until the test lets it answer.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type DataPlane, startDataPlane } from "../../../supabase/local/data-plane.ts";
import { generateLocalKeys, type LocalKeys } from "../../../supabase/local/keys.ts";
import { issueToolKey } from "../../../supabase/local/tool-agent-dev.ts";
import { chatCompletion } from "../../support/openai-server/chat-wire.ts";
import type { PlannedReply } from "../../support/openai-server/replies.ts";
import { TEST_SECRET_KEY } from "../../support/tool-agent-dev.ts";
import { startWranglerDev, type WranglerDev } from "../../support/wrangler-dev.ts";

const stateDir = mkdtempSync(join(tmpdir(), "task-restart-state-"));
const registry = mkdtempSync(join(tmpdir(), "task-restart-registry-"));
let plane: DataPlane;
let keys: LocalKeys;
let worker: WranglerDev | undefined;

// The model: holds every request while `holding`; then answers the planned turns in order.
let holding = true;
const held: ServerResponse[] = [];
const requests: string[] = [];
const turns: Exclude<PlannedReply, { status: number }>[] = [];
const model = createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    requests.push(body);
    if (holding) {
      held.push(res);
      return;
    }
    const turn = turns.shift() ?? { text: "out of script" };
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(chatCompletion(turn, "coder", requests.length)));
  });
});

const start = () =>
  startWranglerDev({
    config: "functions/tool-agent/wrangler.toml",
    registry,
    stateDir,
    plane: { plane, keys },
    vars: {
      TOOL_AGENT_SECRET_KEY: TEST_SECRET_KEY,
      TOOL_AGENT_MODEL_API_KEY: "sk-restart-test",
      TOOL_AGENT_MODEL_BASE_URL: `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`,
      TOOL_AGENT_CODING_MODEL: "coder",
      TOOL_AGENT_CODING_CALL_TIMEOUT_MS: "60000",
      TOOL_AGENT_TASK_STALE_S: "10",
    },
    args: ["--test-scheduled"],
  });

beforeAll(async () => {
  await new Promise<void>((resolve) => model.listen(0, "127.0.0.1", resolve));
  keys = await generateLocalKeys();
  plane = await startDataPlane({ keys });
}, 90_000);
afterAll(async () => {
  await worker?.stop();
  for (const res of held) res.destroy();
  await new Promise((resolve) => model.close(resolve));
  await plane?.stop();
  rmSync(stateDir, { recursive: true, force: true });
  rmSync(registry, { recursive: true, force: true });
});

const call = (key: string, path: string, body?: unknown) =>
  fetch(`${worker!.url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

test("a task whose Worker stopped mid-step completes after the Worker starts again", async () => {
  worker = await start();
  const key = await issueToolKey(plane.postgresPort, "restart test", ["create", "invoke"]);
  const submitted = await call(key, "/create_tool", { description: "a tool that doubles a number" });
  const { task_id } = (await submitted.json()) as { task_id: string };
  // The coding agent is waiting on its first model call.
  await expect.poll(() => requests.length, { timeout: 20_000 }).toBeGreaterThan(0);
  expect(((await (await call(key, `/tasks/${task_id}`)).json()) as { status: string }).status).toBe("running");

  await worker.stop();
  worker = undefined;
  for (const res of held.splice(0)) res.destroy();

  const module =
    "export default { async fetch(request) { const { n } = await request.json(); return Response.json({ doubled: n * 2 }); } };";
  const call_ = (name: string, args: unknown) => ({ toolCalls: [{ name, arguments: args }] });
  turns.push(
    call_("write_file", { path: "tool.js", content: module }),
    call_("write_file", { path: "tests.json", content: JSON.stringify([{ input: { n: 2 }, expect: { doubled: 4 } }]) }),
    call_("register_tool", {
      tool_id: "doubler",
      name: "Doubler",
      description: "Doubles a number.",
      input_schema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
    }),
  );
  holding = false;
  worker = await start();

  // Still running in the engine's eyes, but nothing moves.
  type Task = { status: string; tool_id: string | null; workflow?: { status: string }; log: { kind: string; type?: string }[] };
  const view = async () => (await (await call(key, `/tasks/${task_id}`)).json()) as Task;
  expect(await view()).toMatchObject({ status: "running", workflow: { status: "running" } });
  expect(requests.length).toBe(1);

  // Once the task has not moved for TOOL_AGENT_TASK_STALE_S, the watchdog starts it again.
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  const scheduled = await fetch(`${worker.url}/__scheduled?cron=${encodeURIComponent("* * * * *")}`);
  expect(scheduled.ok).toBe(true);
  let task = await view();
  await expect
    .poll(
      async () => {
        task = await view();
        return task.status;
      },
      { timeout: 60_000, interval: 500 },
    )
    .toBe("completed");
  expect(task.tool_id).toBe("doubler");
  expect(task.log.find((entry) => entry.kind === "MESSAGE" && entry.type === "restart")).toMatchObject({ attempt: 1 });
  const run = await call(key, "/select_tool", { tool_id: "doubler", params: { n: 21 } });
  expect(((await run.json()) as { result: unknown }).result).toEqual({ doubled: 42 });
}, 180_000);
