// Server overhead per agent run on `wrangler dev` (workerd), with the instant offline demo
// model, so the time is ours: auth, credential, intent, a skill read, a real calendar.read
// through PostgREST, post-processing, persistence, the run hub and SSE. Beside it, each on its
// own `wrangler dev`, on the same data plane:
//   floor     the same unavoidable work with no framework (test/bench/floor/worker.ts): token
//             check, credential, the same PostgREST calls and bodies (captured from a real run),
//             R2 objects of the same sizes, one Durable Object round trip, the same SSE bytes;
//   bare SSE  a Hono endpoint streaming as many events, with no work behind them;
//   and the agent once more without [observability], whose local trace store (wrangler dev
//   only) writes on the Worker's own thread.
// Prints p50/p99 latency one at a time and at 10 concurrent, runs/s, workerd CPU per run, and
// the agent's ratios to both. Figures are printed, never asserted (docs/performance.md).
// Run: npm run bench:run-overhead [-- --runs 200 --seconds 10 --concurrency 10]
import { parseArgs } from "node:util";
import { runInput, startRun } from "./support/agent-client.ts";
import { agentBenchConfig, bareConfig, captureFloorScript, startBenchStack, startFloor, workerCpuGroups } from "./support/bench-stack.ts";
import { cpuSnapshot } from "./support/proc-cpu.ts";
import { percentile, row } from "./support/stats.ts";
import { type BenchWorker, startBenchWorker } from "./support/wrangler-worker.ts";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "200" },
    seconds: { type: "string", default: "10" },
    concurrency: { type: "string", default: "10" },
  },
});
const runs = Number(values.runs);
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);

interface Target {
  label: string;
  worker: BenchWorker;
  /** One run, read to its end; resolves with the client's latency in ms. */
  once(client: number): Promise<number>;
}

interface Figures {
  sequential: number[];
  concurrent: number[];
  runsPerSecond: number;
  errors: number;
  workerCpuPerRunMs: number;
  proxyCpuPerRunMs: number;
}

const stack = await startBenchStack();
const script = await captureFloorScript(stack);
const agent = await startBenchWorker({ name: "agent", config: agentBenchConfig(stack), envFiles: [stack.agentEnvFile(stack.plane.url)] });
const quiet = await startBenchWorker({
  name: "agent-quiet",
  config: agentBenchConfig(stack, { observability: false }),
  envFiles: [stack.agentEnvFile(stack.plane.url)],
});
const floor = await startFloor(stack, script);
const bare = await startBenchWorker({ name: "bare", config: bareConfig });
try {
  const sseBytes = script.frames.join("").length;
  const post = (url: string, body: string) =>
    startRun(url, stack.token, body).then((timing) => {
      if (timing.lastType !== "RUN_FINISHED") throw new Error(`run ended with ${timing.lastType}`);
      return timing.endMs;
    });
  // One thread per client, as a person continues their own conversation.
  const targets: Target[] = [
    { label: "agent run (demo model)", worker: agent, once: (c) => post(agent.url, runInput(`bench-agent-${c}`, crypto.randomUUID())) },
    {
      label: "agent, no local trace store",
      worker: quiet,
      once: (c) => post(quiet.url, runInput(`bench-quiet-${c}`, crypto.randomUUID())),
    },
    {
      label: "floor (same work, no framework)",
      worker: floor,
      once: (c) => post(`${floor.url}/`, runInput(`bench-floor-${c}`, crypto.randomUUID())),
    },
    {
      label: "bare Hono SSE",
      worker: bare,
      once: async () => {
        const began = performance.now();
        const response = await fetch(`${bare.url}/?events=${script.frames.length}`, { method: "POST" });
        await response.text();
        return performance.now() - began;
      },
    },
  ];
  const figures = new Map<Target, Figures>(
    targets.map((t) => [t, { sequential: [], concurrent: [], runsPerSecond: 0, errors: 0, workerCpuPerRunMs: 0, proxyCpuPerRunMs: 0 }]),
  );

  for (let i = 0; i < 10; i++) for (const target of targets) await target.once(0); // warm-up
  // Interleaved, so drift on this shared machine hits every target alike.
  for (let i = 0; i < runs; i++) for (const target of targets) figures.get(target)!.sequential.push(await target.once(0));
  for (const target of targets) {
    const f = figures.get(target)!;
    const groups = workerCpuGroups(target.worker);
    const cpu = cpuSnapshot(groups);
    const deadline = performance.now() + seconds * 1000;
    let done = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async (_, client) => {
        while (performance.now() < deadline) {
          try {
            f.concurrent.push(await target.once(client + 1));
            done++;
          } catch {
            f.errors++;
          }
        }
      }),
    );
    const used = cpu.since();
    f.runsPerSecond = done / (used.wallMs / 1000);
    f.workerCpuPerRunMs = (used.byGroup.get(groups[0]!.name) ?? 0) / Math.max(1, done);
    f.proxyCpuPerRunMs = (used.byGroup.get(groups[1]!.name) ?? 0) / Math.max(1, done);
  }

  console.log(
    `\nRun overhead on wrangler dev (workerd), ${runs} runs one at a time (interleaved) + ${seconds} s at ${concurrency} concurrent each ` +
      `(${new Date().toISOString()})`,
  );
  console.log(
    `The captured demo run: ${script.frames.length} SSE events (${sseBytes} bytes), ${script.calls.length} PostgREST calls ` +
      `(${script.calls.map((c) => `${c.method} ${c.path.split("?")[0]} ${c.body.length} B`).join(", ")}), ` +
      `R2 objects of ${script.payloadBytes.join(" + ")} bytes`,
  );
  const widths = [34, 9, 9, 11, 11, 9, 7, 12, 12];
  console.log(
    row(["", "p50 @1", "p99 @1", `p50 @${concurrency}`, `p99 @${concurrency}`, "runs/s", "errors", "CPU/run W", "CPU/run P"], widths),
  );
  for (const target of targets) {
    const f = figures.get(target)!;
    console.log(
      row(
        [
          target.label,
          percentile(f.sequential, 50).toFixed(1),
          percentile(f.sequential, 99).toFixed(1),
          percentile(f.concurrent, 50).toFixed(1),
          percentile(f.concurrent, 99).toFixed(1),
          f.runsPerSecond.toFixed(1),
          String(f.errors),
          f.workerCpuPerRunMs.toFixed(2),
          f.proxyCpuPerRunMs.toFixed(2),
        ],
        widths,
      ),
    );
  }
  console.log("  (ms; CPU/run W = the Worker's workerd process, P = wrangler's proxy workerd, from /proc during the concurrent phase)");
  const [a, q, fl, b] = targets.map((t) => figures.get(t)!) as [Figures, Figures, Figures, Figures];
  const ratio = (x: number, y: number) => `${(x / y).toFixed(2)}x`;
  console.log(
    `agent / floor:    latency p50 @1 ${ratio(percentile(a.sequential, 50), percentile(fl.sequential, 50))} (goal <= 2x), ` +
      `p50 @${concurrency} ${ratio(percentile(a.concurrent, 50), percentile(fl.concurrent, 50))}, ` +
      `throughput ${ratio(a.runsPerSecond, fl.runsPerSecond)} (goal >= 0.5x), Worker CPU/run ${ratio(a.workerCpuPerRunMs, fl.workerCpuPerRunMs)}`,
  );
  console.log(
    `agent without the local trace store / floor: latency p50 @1 ${ratio(percentile(q.sequential, 50), percentile(fl.sequential, 50))}, ` +
      `p50 @${concurrency} ${ratio(percentile(q.concurrent, 50), percentile(fl.concurrent, 50))}, ` +
      `throughput ${ratio(q.runsPerSecond, fl.runsPerSecond)}, Worker CPU/run ${ratio(q.workerCpuPerRunMs, fl.workerCpuPerRunMs)}`,
  );
  console.log(
    `agent / bare SSE: latency p50 @1 ${ratio(percentile(a.sequential, 50), percentile(b.sequential, 50))}, ` +
      `p50 @${concurrency} ${ratio(percentile(a.concurrent, 50), percentile(b.concurrent, 50))}, ` +
      `throughput ${ratio(a.runsPerSecond, b.runsPerSecond)}, Worker CPU/run ${ratio(a.workerCpuPerRunMs, b.workerCpuPerRunMs)}`,
  );
} finally {
  await Promise.all([agent.stop(), quiet.stop(), floor.stop(), bare.stop()]);
  await stack.stop();
}
