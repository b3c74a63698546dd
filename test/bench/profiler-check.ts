// Checks the instrument behind bench:breakdown's server time: V8's sampler in workerd, read as
// samples x the median gap between two busy samples (isolate-time.ts). A Worker does a known
// amount of JavaScript per request (test/bench/profiler-check/worker.ts); /proc says what that
// costs in CPU, without the inspector attached; then the same requests are profiled at several
// sampling intervals. Printed, per interval:
//   - the weight the breakdown would give each sample, beside the CPU each sample really stands
//     for (the /proc slope between two sustained workloads over their sample counts' slope);
//   - for bursts with waits between them, the sampled time beside the JavaScript's CPU.
// Figures are printed, never asserted. Run: npm run bench:profiler-check [-- --requests 200]
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { type CpuProfile, connectCdp } from "./support/cdp.ts";
import { isolateTimePerWindow, sampleSpacingUs } from "./support/isolate-time.ts";
import { commandOf, threadSchedMs } from "./support/proc-cpu.ts";
import { row } from "./support/stats.ts";
import { startBenchWorker } from "./support/wrangler-worker.ts";

const { values } = parseArgs({ options: { requests: { type: "string", default: "200" } } });
const requests = Number(values.requests);
const INTERVALS_US = [100, 250, 500];

interface Pattern {
  name: string;
  bursts: number;
  iterations: number;
  wait: "timer" | "io";
}
// The first two differ only in the amount of sustained work: their difference is pure JavaScript.
const SHORT: Pattern = { name: "one burst of 1.2M steps", bursts: 1, iterations: 1_200_000, wait: "timer" };
const LONG: Pattern = { name: "one burst of 2.4M steps", bursts: 1, iterations: 2_400_000, wait: "timer" };
const patterns: Pattern[] = [
  SHORT,
  LONG,
  { name: "12 bursts of 100k steps, a fetch after each", bursts: 12, iterations: 100_000, wait: "io" },
  { name: "30 bursts of 20k steps, a fetch after each", bursts: 30, iterations: 20_000, wait: "io" },
  { name: "30 bursts of 20k steps, a 1 ms timer after each", bursts: 30, iterations: 20_000, wait: "timer" },
];

const server = createServer((_request, response) => response.end("ok"));
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const ioUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
const worker = await startBenchWorker({
  name: "profiler-check",
  config: "test/bench/profiler-check/wrangler.toml",
  minify: false,
});
const nowUs = () => Number(process.hrtime.bigint() / 1000n);
const urlOf = (p: Pattern) =>
  `${worker.url}/?bursts=${p.bursts}&iterations=${p.iterations}${p.wait === "io" ? `&io=${encodeURIComponent(ioUrl)}` : ""}`;
const request = async (p: Pattern) => void (await (await fetch(urlOf(p), { signal: AbortSignal.timeout(30_000) })).text());

/** On-CPU time of the thread that runs the isolates: workerd's main thread, whose id is the pid (as bench:load reads it), ms. */
const isolateThreadCpuMs = (pid: number) => threadSchedMs(pid, pid).runMs;

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

try {
  const pid = worker.processIds().workerd.find((id) => commandOf(id).includes("--inspector-addr"))!;
  for (let i = 0; i < 20; i++) await request(SHORT);

  // 1. /proc, no inspector: CPU per request of each pattern.
  const cpuMs = new Map<Pattern, number>();
  for (const pattern of patterns) {
    const before = isolateThreadCpuMs(pid);
    for (let i = 0; i < requests; i++) await request(pattern);
    cpuMs.set(pattern, (isolateThreadCpuMs(pid) - before) / requests);
  }
  const msPerStep = (cpuMs.get(LONG)! - cpuMs.get(SHORT)!) / (LONG.iterations - SHORT.iterations);
  const jsMs = (p: Pattern) => p.bursts * p.iterations * msPerStep;

  console.log(`\nThe V8 sampler in workerd against /proc (${requests} sequential requests per pattern; ${new Date().toISOString()})`);
  console.log(`  CPU of the loop, from /proc: ${(msPerStep * 1e6).toFixed(2)} ns per step (the two sustained patterns' difference)`);

  // 2. The profiler at each interval.
  const cdp = await connectCdp(worker.inspectorPort);
  const scripts: Array<{ scriptId: string; url: string; endLine: number }> = [];
  cdp.on((event) => {
    if (event.method === "Debugger.scriptParsed") scripts.push(event.params as (typeof scripts)[number]);
  });
  await cdp.send("Debugger.enable");
  const bundle = scripts.filter((script) => script.url.includes("/.wrangler/tmp/")).sort((a, b) => b.endLine - a.endLine)[0];
  if (!bundle) throw new Error("the Worker's bundle was not announced by the inspector");
  await cdp.send("Debugger.disable");
  const counting = { scriptId: bundle.scriptId, moduleAt: () => "", callsHub: () => false };

  for (const interval of INTERVALS_US) {
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval });
    await cdp.send("Profiler.start");
    const windows = new Map<Pattern, Array<{ fromUs: number; toUs: number }>>();
    for (const pattern of patterns) {
      const list: Array<{ fromUs: number; toUs: number }> = [];
      for (let i = 0; i < requests; i++) {
        const fromUs = nowUs();
        await request(pattern);
        list.push({ fromUs, toUs: nowUs() });
      }
      windows.set(pattern, list);
    }
    const { profile } = await cdp.send<{ profile: CpuProfile }>("Profiler.stop");
    await cdp.send("Profiler.disable");
    const weightUs = sampleSpacingUs(profile);
    // Samples per request: each sample weighs 1.
    const samples = new Map(
      [...windows].map(([p, list]) => [p, mean(isolateTimePerWindow(profile, counting, list, 1).map((t) => t.heldUs))]),
    );
    const cpuPerSampleUs = ((cpuMs.get(LONG)! - cpuMs.get(SHORT)!) * 1000) / (samples.get(LONG)! - samples.get(SHORT)!);
    console.log(`\n  asked every ${interval} us`);
    console.log(
      `    weight per sample (median gap between busy samples) ${weightUs} us; CPU per sample from /proc ${cpuPerSampleUs.toFixed(0)} us (weight/CPU ${(
        weightUs / cpuPerSampleUs
      ).toFixed(2)})`,
    );
    console.log(`    ${row(["pattern", "samples", "sampled ms", "its JS (ms)", "sampled/JS", "/proc ms"], [52, 8, 10, 11, 10, 8])}`);
    for (const pattern of patterns) {
      const n = samples.get(pattern)!;
      const sampledMs = (n * weightUs) / 1000;
      console.log(
        `    ${row(
          [
            pattern.name,
            n.toFixed(1),
            sampledMs.toFixed(2),
            jsMs(pattern).toFixed(2),
            (sampledMs / jsMs(pattern)).toFixed(2),
            cpuMs.get(pattern)!.toFixed(2),
          ],
          [52, 8, 10, 11, 10, 8],
        )}`,
      );
    }
  }
  cdp.close();
  console.log("\n  /proc ms: the thread's whole CPU per request, the fetches' and timers' native work included (outside the isolate too).");
} finally {
  await worker.stop();
  server.close();
}
