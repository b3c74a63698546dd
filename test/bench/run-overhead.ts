// Server overhead per agent run on `wrangler dev` (workerd), with the instant offline demo
// model, so the time is ours: auth, credential, intent, a skill read, a real calendar.read
// through PostgREST, post-processing and SSE. Beside it, in the same process and runtime, a bare
// Hono SSE endpoint streaming as many events. Figures are printed, never asserted.
// Run: npm run bench:run-overhead [-- --runs 200 --seconds 10]
import { type ChildProcess, spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { bundleSkills } from "../../functions/agent/skills/bundle-skills.ts";
import { accessTokenClaims, SEEDED_USERS, signAccessToken } from "../../supabase/local/auth-tokens.ts";
import { startDataPlane } from "../../supabase/local/data-plane.ts";
import { writeDevEnvFile } from "../../supabase/local/dev-env.ts";
import { generateLocalKeys } from "../../supabase/local/keys.ts";
import { ensureStackHome } from "../../supabase/local/postgres.ts";
import { awaitExit, descendantsOf, freePort } from "../../supabase/local/processes.ts";

const { values } = parseArgs({ options: { runs: { type: "string", default: "200" }, seconds: { type: "string", default: "10" } } });
const runs = Number(values.runs);
const seconds = Number(values.seconds);
const repoRoot = resolve(import.meta.dirname, "../..");
const wranglerJs = join(repoRoot, "node_modules/wrangler/bin/wrangler.js");

async function wranglerDev(args: string[], cwd: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      wranglerJs,
      "dev",
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--show-interactive-dev-session=false",
      "--inspector-port",
      String(await freePort()),
      ...args,
    ],
    {
      cwd,
      stdio: "ignore",
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (
      await fetch(url, { method: "HEAD" }).then(
        () => true,
        () => false,
      )
    )
      return { url, child };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("wrangler dev did not start");
}

async function stop(child: ChildProcess) {
  const workerd = descendantsOf(child.pid!);
  child.kill("SIGINT");
  await new Promise((r) => child.once("exit", r));
  await awaitExit(workerd);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function measure(name: string, once: () => Promise<number>) {
  for (let i = 0; i < 10; i++) await once(); // warm-up
  const latencies: number[] = [];
  for (let i = 0; i < runs; i++) {
    const began = performance.now();
    await once();
    latencies.push(performance.now() - began);
  }
  latencies.sort((a, b) => a - b);
  const throughput: Record<number, number> = {};
  for (const concurrency of [1, 10]) {
    let done = 0;
    const deadline = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < deadline) {
          await once();
          done++;
        }
      }),
    );
    throughput[concurrency] = done / seconds;
  }
  console.log(
    `${name.padEnd(34)} p50 ${percentile(latencies, 50).toFixed(1).padStart(6)} ms   p99 ${percentile(latencies, 99).toFixed(1).padStart(6)} ms   ` +
      `${throughput[1]!.toFixed(1).padStart(6)} runs/s @1   ${throughput[10]!.toFixed(1).padStart(6)} runs/s @10`,
  );
}

bundleSkills();
const keys = await generateLocalKeys();
const plane = await startDataPlane({ keys });
const envFile = writeDevEnvFile(ensureStackHome(), { supabaseUrl: plane.url, anonKey: plane.anonKey, keys });
const agent = await wranglerDev(["--env-file", envFile], repoRoot);
const bare = await wranglerDev([], join(repoRoot, "test/bench/bare-sse"));
try {
  const token = await signAccessToken(keys, accessTokenClaims(SEEDED_USERS.alice.id));
  const runBody = () =>
    JSON.stringify({
      threadId: "bench",
      runId: crypto.randomUUID(),
      messages: [{ id: "m", role: "user", content: "What is on my calendar today?" }],
      state: {},
      tools: [],
      context: [],
      forwardedProps: { timezone: "UTC" },
    });
  const readEvents = async (response: Response) => (await response.text()).split("\n\n").filter(Boolean).length;
  const sample = await readEvents(
    await fetch(`${agent.url}/api/v1/agent/runs`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: runBody(),
    }),
  );

  console.log(
    `\nPer-run server overhead on wrangler dev (workerd), ${runs} sequential runs + ${seconds} s at each concurrency (${new Date().toISOString()})`,
  );
  await measure(`agent run, demo model (${sample} events)`, async () =>
    readEvents(
      await fetch(`${agent.url}/api/v1/agent/runs`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: runBody(),
      }),
    ),
  );
  await measure(`bare Hono SSE (${sample} events)`, async () =>
    readEvents(await fetch(`${bare.url}/?events=${sample}`, { method: "POST" })),
  );
} finally {
  await Promise.all([stop(agent.child), stop(bare.child)]);
  await plane.stop();
}
