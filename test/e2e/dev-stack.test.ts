// The README's run command, end to end: `npm run dev` (here its script, on free ports and a
// throwaway stack home) brings up the data plane and `wrangler dev`; the printed token works;
// `npm run dev:token` mints tokens for other seeded users; Ctrl-C leaves no process behind.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { EventType, HttpAgent } from "@ag-ui/client";
import { afterAll, beforeAll, expect, test } from "vitest";
import { freePort } from "../../supabase/local/processes.ts";

const repoRoot = resolve(import.meta.dirname, "../..");
const home = join(tmpdir(), `edge-agent-e2e-${process.pid}-${Date.now()}`);
let dev: ChildProcess;
let output = "";
let workerUrl: string;
let toolAgentUrl: string;
let postgresPort: number;

/** Pids of running processes whose command line contains `text`. */
function pidsMentioning(text: string): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").includes(text) ? [Number(pid)] : [];
      } catch {
        return [];
      }
    });
}

const alive = (pid: number) => existsSync(`/proc/${pid}`);

/** Every process of the stack: Postgres (runs from the home), PostgREST and wrangler (pid files), workerd (its port). */
function stackPids(): number[] {
  // A pid file's first line holds its pids (postmaster.pid has more lines; dev.wrangler.pid two pids).
  const pidFiles = readdirSync(home, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".pid"));
  const fromFiles = pidFiles.flatMap((file) =>
    readFileSync(join(home, file), "utf8").split("\n")[0]!.split(" ").filter(Boolean).map(Number),
  );
  return [
    ...pidsMentioning(home),
    ...fromFiles,
    ...pidsMentioning(`127.0.0.1:${new URL(workerUrl).port}`),
    ...pidsMentioning(`127.0.0.1:${new URL(toolAgentUrl).port}`),
  ];
}

beforeAll(async () => {
  const [worker, toolAgent, gateway, postgres] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  workerUrl = `http://127.0.0.1:${worker}`;
  toolAgentUrl = `http://127.0.0.1:${toolAgent}`;
  postgresPort = postgres;
  const began = performance.now();
  dev = spawn(process.execPath, ["--disable-warning=ExperimentalWarning", "supabase/local/dev.ts"], {
    cwd: repoRoot,
    env: {
      ...process.env,
      LOCAL_STACK_HOME: home,
      // Its own dev registry: the binding must find this stack's Tool Agent, not another test's.
      WRANGLER_REGISTRY_PATH: join(home, "registry"),
      WORKER_PORT: String(worker),
      TOOL_AGENT_PORT: String(toolAgent),
      LOCAL_GATEWAY_PORT: String(gateway),
      LOCAL_POSTGRES_PORT: String(postgres),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  dev.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  dev.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((ready, fail) => {
    const timer = setInterval(() => {
      if (output.includes("Ctrl-C stops everything")) ready();
      else if (dev.exitCode !== null) fail(new Error(`npm run dev exited early:\n${output}`));
      else return;
      clearInterval(timer);
    }, 50);
  });
  console.log(`npm run dev ready in ${(performance.now() - began).toFixed(0)} ms (fresh stack home, template built)`);
}, 120_000);

afterAll(() => {
  if (dev.exitCode === null) dev.kill("SIGKILL");
  rmSync(home, { recursive: true, force: true });
});

test("serves /health with the database up", async () => {
  const response = await fetch(`${workerUrl}/health`);
  expect(response.status).toBe(200);
  expect(await response.json()).toMatchObject({ status: "ok", database: { ok: true } });
});

test("the printed dev token is alice's, and dev:token mints bob's", async () => {
  const token = /export TOKEN=(\S+)/.exec(output)?.[1];
  expect(token).toBeDefined();
  const asAlice = await fetch(`${workerUrl}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } });
  expect(await asAlice.json()).toMatchObject({ user_id: "11111111-1111-4111-8111-111111111111", email: "alice@example.com" });

  const bobToken = execFileSync(process.execPath, ["--disable-warning=ExperimentalWarning", "supabase/local/dev-token.ts", "bob"], {
    cwd: repoRoot,
    env: { ...process.env, LOCAL_STACK_HOME: home },
    encoding: "utf8",
  }).trim();
  const asBob = await fetch(`${workerUrl}/api/v1/me`, { headers: { authorization: `Bearer ${bobToken}` } });
  expect(await asBob.json()).toMatchObject({ user_id: "22222222-2222-4222-8222-222222222222" });
});

test("an AG-UI HttpAgent drives a run end to end with the offline demo model", async () => {
  const token = /export TOKEN=(\S+)/.exec(output)![1]!;
  const agent = new HttpAgent({
    url: `${workerUrl}/api/v1/agent/runs`,
    headers: { authorization: `Bearer ${token}` },
    threadId: `e2e-${Date.now()}`,
    initialMessages: [{ id: "m1", role: "user", content: "What is on my calendar today?" }],
  });
  const seen: string[] = [];
  let runStartedMetadata: unknown;
  const { newMessages } = await agent.runAgent(
    { runId: `e2e-run-${Date.now()}`, forwardedProps: { timezone: "UTC" } },
    {
      onEvent: ({ event }) => {
        seen.push(event.type);
        if (event.type === EventType.RUN_STARTED) runStartedMetadata = event.metadata;
      },
    },
  );
  expect(seen[0]).toBe(EventType.RUN_STARTED);
  expect(seen.at(-1)).toBe(EventType.RUN_FINISHED);
  expect(runStartedMetadata).toMatchObject({ demo_model: true, models: { execution: "offline-demo" } });
  const skillRead = newMessages.find(
    (message) => message.role === "tool" && String(message.content).includes('"path":"calendar/SKILL.md"'),
  );
  expect(skillRead?.metadata).toMatchObject({ tool_name: "view_skill_file" });
  const tool = newMessages.find((message) => message.role === "tool" && String(message.content).includes('"module":"calendar"'));
  expect(tool?.metadata).toMatchObject({ tool_name: "project_cli", status: "success", ui_schema: expect.any(Object) });
  const answer = newMessages.find(
    (message) => message.role === "assistant" && typeof message.content === "string" && message.content.length > 0,
  );
  expect(answer?.content).toContain("[offline demo model]");
  expect(answer?.content).toContain("Project sync"); // Alice's seeded event today, read through the real data plane
}, 30_000);

test("the printed Tool Agent lines search, run, inspect and stop the seeded tools, as a shell runs them", async () => {
  const key = /export TOOL_KEY=(\S+)/.exec(output)?.[1];
  expect(key).toMatch(/^ta_/);
  const lines = output.split("\n").filter((line) => line.trim().startsWith("curl") && line.includes(toolAgentUrl));
  expect(lines.length).toBe(7);
  const run = (line: string, env: Record<string, string> = {}) =>
    execFileSync("bash", ["-c", line.trim()], { env: { ...process.env, TOOL_KEY: key, ...env }, encoding: "utf8" });
  const [search, select, status, stop, chat] = lines.slice(0, 5).map((line) => JSON.parse(run(line)));
  expect(search.tools[0].tool_id).toBe("unit_convert"); // found by its Chinese name
  expect(select).toMatchObject({ status: "success", result: { unit: "mi", kind: "length" } });
  expect(status.tools.map((tool: { tool_id: string }) => tool.tool_id).sort()).toEqual(["json_transform", "text_stats", "unit_convert"]);
  expect(status.tools.find((tool: { tool_id: string }) => tool.tool_id === "unit_convert").state).toBe("running");
  expect(stop).toEqual({ tool_id: "unit_convert", state: "stopped", port: null });
  expect(chat).toMatchObject({ match: "fuzzy", reply_source: "rules", tools: [expect.objectContaining({ tool_id: "unit_convert" })] });

  // Asking for a tool that does not exist: the task is built by the demo coding model, then run.
  const create = output.split("\n").find((line) => line.trim().startsWith("export TASK="))!;
  const task = run(`${create.trim()}\necho "$TASK"`).trim();
  expect(task).toMatch(/^create_[0-9a-f]{12}$/);
  const [watch, summarize] = lines.slice(5);
  await expect.poll(() => JSON.parse(run(watch!, { TASK: task })).status, { timeout: 30_000, interval: 250 }).toBe("completed");
  expect(JSON.parse(run(summarize!))).toMatchObject({ status: "success", result: { summary: "今天天气很好。我们去公园散步。" } });

  // dev:tool-key issues a narrower key into the same database.
  const searchKey = execFileSync(process.execPath, ["--disable-warning=ExperimentalWarning", "supabase/local/dev-tool-key.ts", "search"], {
    cwd: repoRoot,
    env: { ...process.env, LOCAL_POSTGRES_PORT: String(postgresPort) },
    encoding: "utf8",
  }).trim();
  const headers = { authorization: `Bearer ${searchKey}`, "content-type": "application/json" };
  expect((await fetch(`${toolAgentUrl}/search_tools`, { method: "POST", headers, body: "{}" })).status).toBe(200);
  expect(
    (await fetch(`${toolAgentUrl}/select_tool`, { method: "POST", headers, body: '{"tool_id":"text_stats","params":{"text":"a"}}' }))
      .status,
  ).toBe(403);
});

test("the agent Worker's service binding to the Tool Agent is connected", () => {
  expect(output).toMatch(/env\.TOOL_AGENT \(edge-tool-agent#ToolAgentForAgent\)\s+Worker\s+local \[connected\]/);
});

test("the printed playground address serves the page, which can sign in locally and reach the Tool Agent", async () => {
  const address = /(http:\/\/127\.0\.0\.1:\d+\/playground\/)#tool_key=(ta_\S+)/.exec(output);
  expect(address, "npm run dev prints the playground's address").not.toBeNull();
  const [, page, key] = address!;
  expect(key).toBe(/export TOOL_KEY=(\S+)/.exec(output)?.[1]);
  const html = await fetch(page!);
  expect(html.status).toBe(200);
  expect(await html.text()).toContain("edge-agent playground");
  expect(await fetch(new URL("app.js", page)).then((r) => r.status)).toBe(200);

  const config = (await fetch(`${workerUrl}/playground/config`).then((r) => r.json())) as { sign_in_url: string; tool_agent_url: string };
  expect(config.tool_agent_url).toBe(toolAgentUrl);
  const session = await fetch(config.sign_in_url, {
    method: "POST",
    body: JSON.stringify({ email: "bob@example.com", password: "password" }),
  });
  const { access_token } = (await session.json()) as { access_token: string };
  const me = await fetch(`${workerUrl}/api/v1/me`, { headers: { authorization: `Bearer ${access_token}` } });
  expect(await me.json()).toMatchObject({ user_id: "22222222-2222-4222-8222-222222222222" });

  // The Tool Agent lets the page's origin read its answers, and no other.
  const preflight = (origin: string) =>
    fetch(`${toolAgentUrl}/search_tools`, {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization,content-type" },
    }).then((r) => r.headers.get("access-control-allow-origin"));
  expect(await preflight(workerUrl)).toBe(workerUrl);
  expect(await preflight("https://elsewhere.example")).toBeNull();
});

test("Ctrl-C stops both wranglers, workerd, PostgREST and Postgres", async () => {
  const pids = stackPids();
  expect(pids.length).toBeGreaterThanOrEqual(6); // postgres, postgrest, two wranglers, two workerd
  expect(pids.filter((pid) => !alive(pid))).toEqual([]);
  dev.kill("SIGINT");
  const code = await new Promise<number | null>((done) => dev.once("exit", done));
  expect(code).toBe(0);
  expect(pids.filter(alive)).toEqual([]);
  await expect(fetch(`${workerUrl}/health`)).rejects.toThrow();
  await expect(fetch(`${toolAgentUrl}/health`)).rejects.toThrow();
}, 30_000);
