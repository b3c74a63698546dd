// Sustained load on the agent Worker (`wrangler dev`): C clients (10, 50, 100 by default) each
// running runs back to back for a while, a mix of
//   plain  a greeting: intent + one answer step, no tool (2 model calls);
//   tool   today's calendar: intent, skill read, calendar.read, answer (4 model calls);
//   resume a tool run whose client drops after a few events and resumes with ?after=<last id>.
// The model is an OpenAI-compatible server in its own process (test/bench/support/load-model-server.ts),
// or with --model demo the offline demo model (tool runs and resumes only).
// Per level it prints runs/s, p50/p99 time to the first event and to the end, errors, and the
// CPU of every process involved (from /proc), to show what saturates, and the ceiling that
// follows on this machine with the measured rate's share of it (support/load-ceiling.ts).
// Printed, never asserted.
// Run: npm run bench:load [-- --levels 10,50,100 --seconds 20 --model wire|demo]
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { descendantsOf } from "../../supabase/local/processes.ts";
import { resumeRun, runInput, type StreamTiming, startRun } from "./support/agent-client.ts";
import { agentBenchConfig, startBenchStack, workerCpuGroups } from "./support/bench-stack.ts";
import { loadCeiling } from "./support/load-ceiling.ts";
import { commandOf, cpuSnapshot, sampleThreadStates, threadCpuMs, threadSchedMs } from "./support/proc-cpu.ts";
import { percentile, row } from "./support/stats.ts";
import { repoRoot, startBenchWorker } from "./support/wrangler-worker.ts";

const { values } = parseArgs({
  options: {
    levels: { type: "string", default: "10,50,100" },
    seconds: { type: "string", default: "20" },
    warmup: { type: "string", default: "3" },
    model: { type: "string", default: "wire" },
    mix: { type: "string", default: "plain:2,tool:2,resume:1" },
  },
});
const levels = values.levels.split(",").map(Number);
const seconds = Number(values.seconds);
const warmup = Number(values.warmup);
const demo = values.model === "demo";

type Kind = "plain" | "tool" | "resume";
const mix: Kind[] = values.mix.split(",").flatMap((entry) => {
  const [kind, weight] = entry.split(":") as [Kind, string];
  return demo && kind === "plain" ? [] : Array.from({ length: Number(weight) }, () => kind);
});

const QUESTIONS: Record<Kind, string> = {
  plain: "Hello there, what can you do?", // the model server answers "Hello..." without tools
  tool: "What is on my calendar today?",
  resume: "What is on my calendar today?",
};

interface Outcome {
  kind: Kind;
  ok: boolean;
  firstEventMs: number;
  endMs: number;
  error?: string;
}

const stack = await startBenchStack();
const model = demo
  ? undefined
  : spawn(process.execPath, ["--disable-warning=ExperimentalWarning", "test/bench/support/load-model-server.ts"], {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "inherit"],
    });
const modelUrl = model
  ? await new Promise<string>((resolve) => createInterface({ input: model.stdout! }).once("line", resolve))
  : undefined;
const agent = await startBenchWorker({
  name: "agent",
  config: agentBenchConfig(stack),
  envFiles: [
    stack.agentEnvFile(
      stack.plane.url,
      modelUrl ? { AGENT_MODEL_API_KEY: "sk-load-bench", AGENT_MODEL_BASE_URL: modelUrl, AGENT_MODEL_API: "chat" } : {},
    ),
  ],
});

async function once(kind: Kind, threadId: string): Promise<Outcome> {
  const runId = crypto.randomUUID();
  const body = runInput(threadId, runId, QUESTIONS[kind]);
  const began = performance.now();
  try {
    let timing: StreamTiming;
    if (kind === "resume") {
      const first = await startRun(agent.url, stack.token, body, { stopAfterEvents: 3 });
      const rest = await resumeRun(agent.url, stack.token, runId, first.lastId);
      timing = { ...rest, firstEventMs: first.firstEventMs, endMs: performance.now() - began };
    } else timing = await startRun(agent.url, stack.token, body);
    if (timing.lastType !== "RUN_FINISHED")
      return { kind, ok: false, firstEventMs: timing.firstEventMs, endMs: timing.endMs, error: `ended with ${timing.lastType}` };
    return { kind, ok: true, firstEventMs: timing.firstEventMs, endMs: timing.endMs };
  } catch (error) {
    return {
      kind,
      ok: false,
      firstEventMs: Number.NaN,
      endMs: performance.now() - began,
      error: error instanceof Error ? error.message.slice(0, 120) : String(error),
    };
  }
}

/** C clients for warm-up + measured seconds; only runs started after the warm-up count. */
async function level(clients: number) {
  const outcomes: Outcome[] = [];
  const start = performance.now();
  const measureFrom = start + warmup * 1000;
  const deadline = measureFrom + seconds * 1000;
  const postgresRoot = stack.plane.processIds().postgres!;
  const groups = [
    ...workerCpuGroups(agent),
    { name: "PostgREST", pids: () => [stack.plane.processIds().postgrest!] },
    { name: "Postgres (all backends)", pids: () => [postgresRoot, ...descendantsOf(postgresRoot)] },
    ...(model ? [{ name: "model server (node)", pids: () => [model.pid!] }] : []),
    { name: "this process (clients + gateway)", pids: () => [process.pid] },
  ];
  let cpu: ReturnType<typeof cpuSnapshot> | undefined;
  const workerd = agent.processIds().workerd.find((pid) => commandOf(pid).includes("--inspector-addr"))!;
  let threadsBefore = new Map<string, number>();
  let states: ReturnType<typeof sampleThreadStates> | undefined;
  let schedBefore = { runMs: 0, queuedMs: 0 };
  // The thread that runs every isolate (the Worker's and its Durable Objects') is workerd's main one.
  const warmed = new Promise<void>((resolve) =>
    setTimeout(() => {
      cpu = cpuSnapshot(groups);
      threadsBefore = threadCpuMs(workerd);
      states = sampleThreadStates(workerd, workerd);
      schedBefore = threadSchedMs(workerd, workerd);
      resolve();
    }, warmup * 1000),
  );
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let i = client; performance.now() < deadline; i++) {
        const began = performance.now();
        const outcome = await once(mix[i % mix.length]!, `load-${clients}-${client}`);
        if (began >= measureFrom && performance.now() <= deadline) outcomes.push(outcome);
      }
    }),
  );
  await warmed;
  const used = cpu!.since();
  const mainStates = states!.stop();
  const schedAfter = threadSchedMs(workerd, workerd);
  const sched = { runMs: schedAfter.runMs - schedBefore.runMs, queuedMs: schedAfter.queuedMs - schedBefore.queuedMs };
  const threads = [...threadCpuMs(workerd)].map(([tid, ms]) => [tid, ms - (threadsBefore.get(tid) ?? 0)] as const);
  return { outcomes, used, threads, mainStates, sched };
}

try {
  console.log(
    `\nSustained load on wrangler dev, ${demo ? "offline demo model" : "OpenAI-wire model server in its own process"}; ` +
      `mix ${values.mix}${demo ? " (no plain runs with the demo model)" : ""}; ${warmup} s warm-up + ${seconds} s per level (${new Date().toISOString()})`,
  );
  const widths = [8, 8, 9, 9, 9, 9, 8, 8];
  for (const clients of levels) {
    const { outcomes, used, threads, mainStates, sched } = await level(clients);
    const ok = outcomes.filter((o) => o.ok);
    const elapsed = used.wallMs / 1000;
    console.log(`\n${clients} clients: ${ok.length} runs finished in ${elapsed.toFixed(1)} s, ${outcomes.length - ok.length} errors`);
    console.log(`  ${row(["kind", "runs/s", "first p50", "first p99", "end p50", "end p99", "errors", ""], widths)}`);
    for (const kind of ["all", ...new Set(mix)] as const) {
      const of = outcomes.filter((o) => kind === "all" || o.kind === kind);
      const good = of.filter((o) => o.ok);
      console.log(
        `  ${row(
          [
            kind,
            (good.length / elapsed).toFixed(1),
            percentile(
              good.map((o) => o.firstEventMs),
              50,
            ).toFixed(0),
            percentile(
              good.map((o) => o.firstEventMs),
              99,
            ).toFixed(0),
            percentile(
              good.map((o) => o.endMs),
              50,
            ).toFixed(0),
            percentile(
              good.map((o) => o.endMs),
              99,
            ).toFixed(0),
            String(of.length - good.length),
            "",
          ],
          widths,
        )}`,
      );
    }
    const errors = new Map<string, number>();
    for (const o of outcomes) if (!o.ok) errors.set(o.error ?? "?", (errors.get(o.error ?? "?") ?? 0) + 1);
    for (const [error, n] of errors) console.log(`  error x${n}: ${error}`);
    console.log(`  CPU (share of one core, and ms per finished run); machine busy ${(used.machineBusyShare * 100).toFixed(0)}% of 2 cores`);
    for (const [name, ms] of used.byGroup)
      console.log(
        `    ${name.padEnd(44)} ${`${((ms / used.wallMs) * 100).toFixed(0)}%`.padStart(5)}  ${(ms / Math.max(1, ok.length)).toFixed(2).padStart(7)} ms/run`,
      );
    for (const [tid, ms] of threads)
      if (ms > 0) console.log(`      Worker thread ${tid.padEnd(30)} ${`${((ms / used.wallMs) * 100).toFixed(0)}%`.padStart(5)}`);
    console.log(
      `  workerd's main thread (runs every isolate): on a core ${((sched.runMs / used.wallMs) * 100).toFixed(0)}% of the time, ` +
        `waiting for a core ${((sched.queuedMs / used.wallMs) * 100).toFixed(0)}%; sampled states:`,
    );
    console.log(`    ${mainStates.map(([state, share]) => `${state} ${(share * 100).toFixed(0)}%`).join(", ")}`);
    const ceiling = loadCeiling({
      runs: ok.length,
      wallMs: used.wallMs,
      mainIdleShare: mainStates.filter(([state]) => state.includes("(idle")).reduce((sum, [, share]) => sum + share, 0),
      mainQueuedMs: sched.queuedMs,
      cpuMs: [...used.byGroup.values()].reduce((sum, ms) => sum + ms, 0),
      cores: availableParallelism(),
    });
    console.log(
      `  ceiling: the main thread's own time ${ceiling.mainThreadMsPerRun.toFixed(1)} ms/run -> ${ceiling.mainThreadPerSecond.toFixed(1)} runs/s; ` +
        `${availableParallelism()} cores / ${ceiling.cpuMsPerRun.toFixed(1)} ms of CPU per run across processes -> ${ceiling.coresPerSecond.toFixed(1)} runs/s; ` +
        `measured ${ceiling.measuredPerSecond.toFixed(1)}, ${(ceiling.shareOfBound * 100).toFixed(0)}% of the lower`,
    );
  }
} finally {
  await agent.stop();
  model?.kill("SIGTERM");
  await stack.stop();
}
