// Drives the stage Worker (test/bench/stages/worker.ts): each stage of a run, repeated until it
// has run about a second, with the CPU the Worker's process, PostgREST and Postgres used
// meanwhile read from /proc. /proc counts in 10 ms ticks; a second of work keeps that error
// near 1%.
import { join } from "node:path";
import { descendantsOf } from "../../../supabase/local/processes.ts";
import type { BenchStack } from "./bench-stack.ts";
import { commandOf, processCpuMs } from "./proc-cpu.ts";
import { repoRoot, startBenchWorker } from "./wrangler-worker.ts";

export interface StageCost {
  stage: string;
  iterations: number;
  /** Per iteration, in ms. */
  workerCpuMs: number;
  dataPlaneCpuMs: number;
  wallMs: number;
}

export async function measureStages(
  stack: BenchStack,
  targetMs = 1_000,
  onStage: (cost: StageCost) => void = () => {},
  only: (stage: string) => boolean = () => true,
): Promise<{ costs: StageCost[]; appendsPerRun: number; eventsPerRun: number }> {
  const worker = await startBenchWorker({
    name: "stages",
    config: join(repoRoot, "test/bench/stages/wrangler.toml"),
    envFiles: [stack.agentEnvFile(stack.plane.url)],
  });
  try {
    const workerd = worker.processIds().workerd.find((pid) => commandOf(pid).includes("--inspector-addr"))!;
    const postgresRoot = stack.plane.processIds().postgres!;
    const dataPlaneCpu = () =>
      [stack.plane.processIds().postgrest!, postgresRoot, ...descendantsOf(postgresRoot)].reduce((sum, pid) => sum + processCpuMs(pid), 0);
    const call = async (stage: string, n: number) => {
      // A stage that hangs is named, not waited on: about a second of work has two minutes.
      const response = await fetch(`${worker.url}/stage/${encodeURIComponent(stage)}?n=${n}`, {
        method: "POST",
        headers: { authorization: `Bearer ${stack.token}` },
        signal: AbortSignal.timeout(120_000),
      }).catch((error: unknown) => {
        throw new Error(`stage ${stage} (n=${n}): ${String(error)}\n${worker.output().slice(-3000)}`);
      });
      if (!response.ok)
        throw new Error(`stage ${stage}: HTTP ${response.status} ${await response.text()}\n${worker.output().slice(-3000)}`);
      return (await response.json()) as { n: number; wallMs: number; appendsPerRun: number; eventsPerRun: number };
    };
    const stages = (await (await fetch(`${worker.url}/stages`, { signal: AbortSignal.timeout(30_000) })).json()) as string[];
    const costs: StageCost[] = [];
    let shape = { appendsPerRun: 0, eventsPerRun: 0 };
    for (const stage of stages.filter(only)) {
      const probe = await call(stage, 20); // warm-up, and how long one takes
      shape = probe;
      // Log lines travel from workerd to wrangler over sockets it opens faster than it closes:
      // tens of thousands in one request run it out of file descriptors and break the Worker.
      const cap = stage.startsWith("logging") ? 1_000 : 20_000;
      const n = Math.max(20, Math.min(cap, Math.round((targetMs * 20) / Math.max(1, probe.wallMs))));
      const cpuBefore = processCpuMs(workerd);
      const planeBefore = dataPlaneCpu();
      const result = await call(stage, n);
      const cost = {
        stage,
        iterations: n,
        workerCpuMs: (processCpuMs(workerd) - cpuBefore) / n,
        dataPlaneCpuMs: (dataPlaneCpu() - planeBefore) / n,
        wallMs: result.wallMs / n,
      };
      costs.push(cost);
      onStage(cost);
    }
    return { costs, ...shape };
  } finally {
    await worker.stop();
  }
}
