// Where one agent run's cost goes, on `wrangler dev` with the offline demo model (sequential
// runs, so every sample and every call belongs to one run). Four instruments, each checked
// against the others (method: docs/performance.md):
//   1. /proc: CPU per run of each process and of the Worker's threads (ground truth), bytes the
//      Worker's process wrote, and what its local state grew by;
//   2. a tap in front of the data plane: round trips and bytes per service, and their times,
//      which split each run's wall time into stages;
//   3. the V8 profiler over the inspector (Chrome DevTools Protocol): the isolate thread's
//      time by stage, by dependency and by runtime API; counting breakpoints (conditions that
//      count and never pause) for Durable Object calls, R2 writes, model calls and log lines;
//   4. Linux perf, when installed: the Worker process's CPU below JavaScript (SQLite, tracing,
//      GC, streams, RPC ...).
// Figures are printed, never asserted. Run: npm run bench:breakdown [-- --runs 100 --no-perf]
// `-- --save-profile <dir>` also writes the profiled runs' V8 profile and the bundle it names.
// `-- --stage <text>` measures only the stages whose names contain the text (step 5 alone).
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { descendantsOf } from "../../supabase/local/processes.ts";
import { runInput, startRun } from "./support/agent-client.ts";
import { agentBenchConfig, startBenchStack, workerCpuGroups } from "./support/bench-stack.ts";
import { type CpuProfile, connectCdp } from "./support/cdp.ts";
import { startDataPlaneTap, type TappedCall } from "./support/data-plane-tap.ts";
import { hubCallLines, isolateTimePerWindow, sampleSpacingUs } from "./support/isolate-time.ts";
import { perfAvailable, startPerf } from "./support/perf-profile.ts";
import { commandOf, cpuSnapshot, threadCpuMs } from "./support/proc-cpu.ts";
import { attribute, moduleMap } from "./support/profile-attribution.ts";
import { measureStages } from "./support/stage-costs.ts";
import { percentile, row } from "./support/stats.ts";
import { startBenchWorker } from "./support/wrangler-worker.ts";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "100" },
    "no-perf": { type: "boolean", default: false },
    // 100 us: the steadiest interval in bench:profiler-check, where the weight of a sample (the
    // median gap between busy samples) was 0.95-1.33 of the CPU a sample stands for; at 250 and
    // 500 us it was 1.12-2.35 of it, changing from one invocation to the next.
    interval: { type: "string", default: "100" },
    "save-profile": { type: "string" },
    stage: { type: "string" },
  },
});
const runs = Number(values.runs);
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

interface RunTrace {
  startUs: number;
  endUs: number;
  firstEventUs: number;
  bytes: number;
  calls: TappedCall[];
}

const stack = await startBenchStack();

/** 5. Each stage alone, in its own Worker, with /proc: absolute CPU per stage. */
async function printStageCosts(only: (stage: string) => boolean = () => true) {
  console.log("\nCPU per stage, each alone in workerd (test/bench/stages/worker.ts; ms per iteration, /proc)");
  console.log(`  ${row(["stage", "Worker CPU", "DB CPU", "wall"], [80, 10, 8, 8])}`);
  const shape = await measureStages(
    stack,
    1_000,
    (cost) =>
      console.log(
        `  ${row([cost.stage, cost.workerCpuMs.toFixed(2), cost.dataPlaneCpuMs.toFixed(2), cost.wallMs.toFixed(2)], [80, 10, 8, 8])}`,
      ),
    only,
  );
  console.log(`  (the hub stage replays a real run's ${shape.eventsPerRun} events in its ${shape.appendsPerRun} append batches)`);
}

if (values.stage !== undefined) {
  const text = values.stage;
  try {
    await printStageCosts((stage) => stage.includes(text));
  } finally {
    await stack.stop();
  }
  process.exit(0);
}

const tap = await startDataPlaneTap(stack.plane.url);
const agent = await startBenchWorker({
  name: "agent",
  config: agentBenchConfig(stack),
  envFiles: [stack.agentEnvFile(tap.url)],
  minify: false,
});
const workerPid = () => agent.processIds().workerd.find((pid) => commandOf(pid).includes("--inspector-addr"))!;

/** One run, one at a time, with its data-plane calls. */
async function tracedRun(threadId: string): Promise<RunTrace> {
  const from = tap.calls.length;
  const startUs = nowUs();
  const timing = await startRun(agent.url, stack.token, runInput(threadId, crypto.randomUUID()));
  if (timing.lastType !== "RUN_FINISHED") throw new Error(`run ended with ${timing.lastType}`);
  // The last call is answered before RUN_FINISHED is emitted, so it is in the tap already.
  return {
    startUs,
    endUs: startUs + timing.endMs * 1000,
    firstEventUs: startUs + timing.firstEventMs * 1000,
    bytes: timing.bytes,
    calls: tap.calls.slice(from),
  };
}

function sizesUnder(dir: string): Map<string, number> {
  const sizes = new Map<string, number>();
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else sizes.set(path, statSync(path).size);
    }
  };
  walk(dir);
  return sizes;
}

const writeBytes = (pid: number) => Number(/write_bytes: (\d+)/.exec(readFileSync(`/proc/${pid}/io`, "utf8"))?.[1] ?? 0);

try {
  for (let i = 0; i < 10; i++) await tracedRun("breakdown-warm");
  const loadBefore = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

  // 1 + 2. Ground truth, no inspector attached (an attached inspector makes console.* costly).
  const pid = workerPid();
  const postgresRoot = stack.plane.processIds().postgres!;
  const groups = [
    ...workerCpuGroups(agent),
    { name: "PostgREST", pids: () => [stack.plane.processIds().postgrest!] },
    { name: "Postgres (all backends)", pids: () => [postgresRoot, ...descendantsOf(postgresRoot)] },
    { name: "this process (client, tap, gateway)", pids: () => [process.pid] },
  ];
  const cpu = cpuSnapshot(groups);
  const threadsBefore = threadCpuMs(pid);
  const statesBefore = sizesUnder(agent.persistDir);
  const writtenBefore = writeBytes(pid);
  const traces: RunTrace[] = [];
  for (let i = 0; i < runs; i++) traces.push(await tracedRun("breakdown"));
  const used = cpu.since();
  const threadsAfter = threadCpuMs(pid);
  const written = writeBytes(pid) - writtenBefore;
  const stateGrowth = new Map<string, number>();
  for (const [path, size] of sizesUnder(agent.persistDir)) {
    const area = path.slice(agent.persistDir.length).split("/").slice(2, 4).join("/");
    stateGrowth.set(area, (stateGrowth.get(area) ?? 0) + size - (statesBefore.get(path) ?? 0));
  }

  // 4. perf, before any inspector session.
  let perf: Map<string, number> | undefined;
  if (!values["no-perf"] && perfAvailable()) {
    const session = startPerf(pid);
    await new Promise((r) => setTimeout(r, 500));
    for (let i = 0; i < runs; i++) await tracedRun("breakdown-perf");
    perf = await session.stop();
  }

  // 3. The inspector: counting breakpoints, then the profile.
  const cdp = await connectCdp(agent.inspectorPort);
  const scripts: Array<{ scriptId: string; url: string; endLine: number }> = [];
  const contexts: number[] = [];
  cdp.on((event) => {
    if (event.method === "Debugger.scriptParsed") scripts.push(event.params as { scriptId: string; url: string; endLine: number });
    if (event.method === "Runtime.executionContextCreated") contexts.push((event.params.context as { id: number }).id);
  });
  await cdp.send("Debugger.enable");
  await cdp.send("Runtime.enable");
  // The Worker's bundle: the largest script wrangler wrote (the others are miniflare's wrappers).
  const bundle = scripts.filter((script) => script.url.includes("/.wrangler/tmp/")).sort((a, b) => b.endLine - a.endLine)[0];
  if (!bundle) throw new Error("the Worker's bundle was not announced by the inspector");
  const { scriptSource } = await cdp.send<{ scriptSource: string }>("Debugger.getScriptSource", { scriptId: bundle.scriptId });
  const moduleAt = moduleMap(scriptSource);
  const lines = scriptSource.split("\n");
  /** The first line of `module` matching `pattern`: where a counting breakpoint goes (the line after). */
  const lineIn = (module: string, pattern: RegExp) => {
    const index = lines.findIndex((text, line) => pattern.test(text) && moduleAt(line).endsWith(module));
    if (index < 0) throw new Error(`no ${pattern} in ${module}`);
    return index;
  };
  // Each breakpoint's condition adds to counters in the isolate's global and answers false, so
  // it never pauses. Counting perturbs timing: this pass is not timed.
  const counters: Array<[string, RegExp, Array<[string, string]>]> = [
    ["run-hub/run-hub.ts", /^\s+async start\(/, [["hub.start: claim + RUN_STARTED (DO call)", "1"]]],
    ["run-hub/run-hub.ts", /^\s+async follow\(/, [["hub.follow (DO call)", "1"]]],
    ["run-hub/run-hub.ts", /^\s+async append\(/, [["hub.append (DO call)", "1"]]],
    ["run-hub/run-hub.ts", /^\s+async isCancelRequested\(/, [["hub.isCancelRequested: the cancel check (DO call)", "1"]]],
    [
      "run-hub/run-hub.ts",
      /^\s+async write\(/,
      [
        ["events stored (by start and append)", "events.length"],
        ["batches with the recorded note", "note?.recorded ? 1 : 0"],
      ],
    ],
    ["run-hub/run-hub.ts", /^\s+async refused\(/, [["hub.refused (DO call)", "1"]]],
    ["run-hub/run-hub.ts", /^\s+async info\(/, [["hub.info (DO call)", "1"]]],
    ["persistence/payload-store.ts", /^\s+async put\(/, [["R2 put", "1"]]],
    ["runtime/demo-model.ts", /^\s+async doStream\(/, [["model calls (intent + execution steps)", "1"]]],
    ["lib/log.ts", /^function formatLogLine\(/, [["log lines", "1"]]],
    ["lib/auth/credential.ts", /^async function mintCredential\(/, [["credentials minted (ES256 sign)", "1"]]],
    ["lib/auth/credential.ts", /^async function importCredentialSigner\(/, [["signing key imported", "1"]]],
    ["lib/supabase.ts", /^function createUserClient\(/, [["supabase-js clients created", "1"]]],
    ["agent/settings.ts", /^function parseSettings\(/, [["settings parsed (zod)", "1"]]],
  ];
  const breakpoints: string[] = [];
  for (const [module, pattern, counts] of counters) {
    const adds = counts.map(([name, amount]) => {
      const key = JSON.stringify(name);
      return `c[${key}] = (c[${key}] ?? 0) + (${amount})`;
    });
    const condition = `((c) => (${adds.join(", ")}, false))(globalThis.__benchCounts ??= {})`;
    const { breakpointId } = await cdp.send<{ breakpointId: string }>("Debugger.setBreakpoint", {
      location: { scriptId: bundle.scriptId, lineNumber: lineIn(module, pattern) + 1, columnNumber: 0 },
      condition,
    });
    breakpoints.push(breakpointId);
  }
  const countedRuns = Math.min(runs, 30);
  const callsBefore = tap.calls.length;
  for (let i = 0; i < countedRuns; i++) await tracedRun("breakdown-count");
  // Summed over every context the isolate has (the Worker's and the Durable Objects', if apart).
  const counts: Record<string, number> = {};
  for (const contextId of contexts) {
    const { result } = await cdp.send<{ result: { value?: string } }>("Runtime.evaluate", {
      expression: "JSON.stringify(globalThis.__benchCounts ?? {})",
      returnByValue: true,
      contextId,
    });
    for (const [name, value] of Object.entries(JSON.parse(result.value ?? "{}") as Record<string, number>))
      counts[name] = (counts[name] ?? 0) + value;
  }
  const jwksCalls = tap.calls.slice(callsBefore).filter((call) => call.service === "jwks").length;
  for (const id of breakpoints) await cdp.send("Debugger.removeBreakpoint", { breakpointId: id });
  await cdp.send("Debugger.disable");
  // With Runtime enabled every console line is also sent to this session: not what production pays.
  await cdp.send("Runtime.disable");

  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: Number(values.interval) });
  await cdp.send("Profiler.start");
  const profiled: RunTrace[] = [];
  for (let i = 0; i < runs; i++) profiled.push(await tracedRun("breakdown-profile"));
  const { profile } = await cdp.send<{ profile: CpuProfile }>("Profiler.stop");
  cdp.close();
  if (values["save-profile"]) {
    // For a closer look: the profile opens in Chrome DevTools' Performance panel; the bundle's
    // `// path` comments say which module each of its lines is.
    mkdirSync(values["save-profile"], { recursive: true });
    writeFileSync(join(values["save-profile"], "runs.cpuprofile"), JSON.stringify(profile));
    writeFileSync(join(values["save-profile"], "bundle.js"), scriptSource);
    writeFileSync(join(values["save-profile"], "bundle-script-id.txt"), bundle.scriptId);
  }
  const loadAfter = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

  // Report.
  console.log(`\nPer-run cost breakdown of an agent run (offline demo model), wrangler dev, ${runs} sequential runs per pass`);
  console.log(
    `(${new Date().toISOString()}; load average ${loadBefore} before, ${loadAfter} after; 2-core machine shared with other work)\n`,
  );

  console.log("Round trips per run");
  const perRun = (calls: TappedCall[], n: number) => {
    const byKey = new Map<string, { n: number; req: number; res: number }>();
    for (const call of calls) {
      const key = `${call.service} ${call.method} ${call.path}`;
      const entry = byKey.get(key) ?? { n: 0, req: 0, res: 0 };
      entry.n++;
      entry.req += call.requestBytes;
      entry.res += call.responseBytes;
      byKey.set(key, entry);
    }
    return [...byKey].map(
      ([key, e]) =>
        `  ${key.padEnd(52)} ${(e.n / n).toFixed(2)} /run   ${(e.req / e.n).toFixed(0)} B sent, ${(e.res / e.n).toFixed(0)} B received each`,
    );
  };
  for (const line of perRun(
    traces.flatMap((t) => t.calls),
    runs,
  ))
    console.log(line);
  console.log(`  JWKS fetches: ${jwksCalls} in ${countedRuns} runs (jose caches the key set per isolate)`);
  for (const [name, value] of Object.entries(counts)) console.log(`  ${name.padEnd(52)} ${(value / countedRuns).toFixed(2)} /run`);

  console.log("\nBytes per run");
  console.log(
    `  SSE to the client: ${percentile(
      traces.map((t) => t.bytes),
      50,
    )} B`,
  );
  console.log(`  written to disk by the Worker's workerd (/proc io): ${(written / runs / 1024).toFixed(1)} KiB`);
  for (const [area, bytes] of [...stateGrowth].sort((a, b) => b[1] - a[1]))
    console.log(`  local state growth ${area.padEnd(44)} ${(bytes / runs / 1024).toFixed(1)} KiB`);

  console.log("\nWall time per stage (p50 / p99 over runs, ms), split by the data-plane calls the tap saw");
  const segments: Array<[string, (t: RunTrace, s: TappedCall, g: TappedCall, f: TappedCall) => number]> = [
    ["request -> record_run_start sent (auth, hub start, credential)", (t, s) => s.arrivedUs - t.startUs],
    ["record_run_start in PostgREST + Postgres", (_t, s) => s.answeredUs - s.arrivedUs],
    ["-> calendar.read sent (intent, steps 1-2, skill read, validation)", (_t, s, g) => g.arrivedUs - s.answeredUs],
    ["calendar.read in PostgREST + Postgres", (_t, _s, g) => g.answeredUs - g.arrivedUs],
    ["-> record_run_finish sent (post-processing, answer, R2 puts)", (_t, _s, g, f) => f.arrivedUs - g.answeredUs],
    ["record_run_finish in PostgREST + Postgres", (_t, _s, _g, f) => f.answeredUs - f.arrivedUs],
    ["-> last byte at the client (RUN_FINISHED on the live stream)", (t, _s, _g, f) => t.endUs - f.answeredUs],
    ["total", (t) => t.endUs - t.startUs],
    ["time to the first event at the client", (t) => t.firstEventUs - t.startUs],
    [
      "wall time minus the data plane's answers (hub, R2, proxy still in)",
      (t, s, g, f) => t.endUs - t.startUs - [s, g, f].reduce((sum, call) => sum + call.answeredUs - call.arrivedUs, 0),
    ],
  ];
  const split = (t: RunTrace) => {
    const rest = t.calls.filter((c) => c.service === "postgrest");
    return rest.length === 3 ? (rest as [TappedCall, TappedCall, TappedCall]) : undefined;
  };
  for (const [name, of] of segments) {
    const xs = traces.flatMap((t) => {
      const s = split(t);
      return s ? [of(t, ...s) / 1000] : [];
    });
    console.log(`  ${name.padEnd(72)} ${percentile(xs, 50).toFixed(1).padStart(6)} ${percentile(xs, 99).toFixed(1).padStart(7)}`);
  }

  console.log("\nCPU per run from /proc (ms; no inspector attached)");
  for (const [name, ms] of used.byGroup) console.log(`  ${name.padEnd(52)} ${(ms / runs).toFixed(2)}`);
  for (const [tid, ms] of threadsAfter) {
    const delta = ms - (threadsBefore.get(tid) ?? 0);
    if (delta > 0) console.log(`    thread ${tid.padEnd(46)} ${(delta / runs).toFixed(2)}`);
  }
  console.log(`  wall per run ${(used.wallMs / runs).toFixed(1)} ms; machine busy ${(used.machineBusyShare * 100).toFixed(0)}% of 2 cores`);

  if (perf) {
    const total = [...perf.values()].reduce((a, b) => a + b, 0);
    console.log(`\nThe Worker's workerd process on CPU, by what the native stack is doing (perf, ${total} samples at 1999 Hz)`);
    for (const [category, n] of [...perf].sort((a, b) => b[1] - a[1]))
      console.log(
        `  ${category.padEnd(66)} ${((n / total) * 100).toFixed(1).padStart(5)}%  ${(n / 1.999 / runs).toFixed(2).padStart(6)} ms/run`,
      );
  }

  const attribution = attribute(profile, { scriptId: bundle.scriptId, moduleAt }, { intervalUs: Number(values.interval) });
  const busy = attribution.busyUs;
  console.log(
    `\nShares of the isolate thread's samples in a full run (V8 profile over the inspector, ${runs} runs, by count; ` +
      `${((busy / (busy + attribution.idleUs)) * 100).toFixed(0)}% of samples not idle)`,
  );
  const table = (map: Map<string, number>) => {
    for (const [name, us] of [...map].sort((a, b) => b[1] - a[1]))
      if (us / busy >= 0.005) console.log(`  ${row([name, `${((us / busy) * 100).toFixed(1)}%`], [64, 7])}`);
  };
  table(attribution.byStage);
  console.log("\n  by dependency (the leaf frame's package; runtime APIs by their JS caller)");
  table(attribution.byDependency);
  console.log("\n  runtime APIs and VM states at the leaf");
  table(attribution.byNative);

  // The same profile per run: the isolate's time, what of it the hub object and the model took.
  const callsHub = hubCallLines(scriptSource, moduleAt);
  const perRunWindows = profiled.map((t, i) => ({ fromUs: t.startUs, toUs: profiled[i + 1]?.startUs ?? t.endUs + 1_000_000 }));
  const spacingUs = sampleSpacingUs(profile);
  const isolate = isolateTimePerWindow(
    profile,
    { scriptId: bundle.scriptId, moduleAt, callsHub: (line) => callsHub.has(line) },
    perRunWindows,
    spacingUs,
  );
  const inMs = (list: number[], p: number) => (percentile(list, p) / 1000).toFixed(2);
  console.log(
    `\nThe isolate's time per run (V8 samples, asked every ${values.interval} us, taken every ${spacingUs} us: each counts that; the sampler samples only while the isolate is held; bench:profiler-check says how far to trust it), p50 / p99 ms`,
  );
  const columns: Array<[string, (t: (typeof isolate)[number]) => number]> = [
    ["held by the run (what production bills as the Worker's CPU time)", (t) => t.heldUs],
    ["of which the run's Durable Object (its machine in production)", (t) => t.hubObjectUs],
    ["of which the offline demo model (stands in for the model)", (t) => t.modelUs],
    ["server time: the run's own (goal p50 <= 5 ms)", (t) => t.heldUs - t.hubObjectUs - t.modelUs],
  ];
  for (const [name, of] of columns) console.log(`  ${row([name, inMs(isolate.map(of), 50), inMs(isolate.map(of), 99)], [66, 7, 7])}`);

  // The same profile split by the wall-time stages above.
  console.log("\nWhere in the run's timeline the isolate's samples fall (share of all non-idle samples)");
  const windows: Array<[string, (t: RunTrace, s: TappedCall, g: TappedCall, f: TappedCall) => [number, number]]> = [
    ["request -> record_run_start sent", (t, s) => [t.startUs, s.arrivedUs]],
    ["waiting on record_run_start", (_t, s) => [s.arrivedUs, s.answeredUs]],
    ["-> calendar.read sent", (_t, s, g) => [s.answeredUs, g.arrivedUs]],
    ["waiting on calendar.read", (_t, _s, g) => [g.arrivedUs, g.answeredUs]],
    ["-> record_run_finish sent", (_t, _s, g, f) => [g.answeredUs, f.arrivedUs]],
    ["waiting on record_run_finish", (_t, _s, _g, f) => [f.arrivedUs, f.answeredUs]],
    ["-> last byte at the client", (t, _s, _g, f) => [f.answeredUs, t.endUs]],
    ["after the last byte (waitUntil, alarms)", (t) => [t.endUs, t.endUs + 1_000_000]],
  ];
  for (const [name, window] of windows) {
    const ranges = profiled.flatMap((t, i) => {
      const s = split(t);
      if (!s) return [];
      const [from, to] = window(t, ...s);
      return [[from, Math.min(to, profiled[i + 1]?.startUs ?? to)] as const];
    });
    const inside = (time: number) => ranges.some(([from, to]) => time >= from && time < to);
    const part = attribute(profile, { scriptId: bundle.scriptId, moduleAt }, { include: inside, intervalUs: Number(values.interval) });
    const top = [...part.byStage].sort((a, b) => b[1] - a[1]).slice(0, 4);
    console.log(
      `  ${name.padEnd(42)} ${`${((part.busyUs / busy) * 100).toFixed(1)}%`.padStart(6)}  ` +
        top.map(([stage, us]) => `${stage} ${((us / busy) * 100).toFixed(1)}%`).join("; "),
    );
  }

  await printStageCosts();
  console.log(
    `  the full agent run above: ${((used.byGroup.get(groups[0]!.name) ?? 0) / runs).toFixed(2)} ms CPU per run in the Worker's workerd`,
  );
} finally {
  await agent.stop();
  await tap.stop();
  await stack.stop();
}
