// Any Worker of the benchmarks (the agent, the floor, the bare SSE endpoint) on `wrangler dev`:
// free ports, its own persistence directory, an inspector port for the profiler, and the pids
// of the processes that serve it, for CPU accounting from /proc.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { awaitExit, childEnv, descendantsOf, freePort, retryOnTakenPort } from "../../../supabase/local/processes.ts";
import { repoRoot, wranglerDevArgs } from "../../../supabase/local/wrangler-dev-args.ts";

export { repoRoot };

export interface BenchWorker {
  name: string;
  url: string;
  inspectorPort: number;
  /** Where R2 objects and Durable Object state live for this instance. */
  persistDir: string;
  /** wrangler's Node process and its descendants (the workerd processes), as of now. */
  processIds(): { wrangler: number; workerd: number[] };
  output(): string;
  stop(): Promise<void>;
}

export interface BenchWorkerOptions {
  name: string;
  /** wrangler.toml of the Worker. */
  config: string;
  envFiles?: string[];
  /** Override the config's `minify` (the profiler reads module paths from an unminified bundle). */
  minify?: boolean;
}

// A benchmark that ends early (Ctrl-C, SIGTERM, or a closed pipe such as `| head`) must not
// leave wrangler's workerd processes behind: orphans keep using CPU (two of them took 70% of a
// core for 40 minutes once) and skew every later figure on the machine. On exit each Worker
// still running is killed with its workerd processes; the signals and a closed stdout are
// turned into an exit, so that hook (and the data plane's) runs.
const stillRunning = new Set<() => void>();
let exitHooked = false;

function killOnExit(kill: () => void): () => void {
  if (!exitHooked) {
    exitHooked = true;
    process.once("exit", () => {
      for (const killOne of stillRunning) killOne();
    });
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.once(signal, () => process.exit(1));
    process.stdout.on("error", () => process.exit(1));
  }
  stillRunning.add(kill);
  return () => stillRunning.delete(kill);
}

export function startBenchWorker(options: BenchWorkerOptions): Promise<BenchWorker> {
  return retryOnTakenPort(() => startOnce(options));
}

async function startOnce(options: BenchWorkerOptions): Promise<BenchWorker> {
  const [port, inspectorPort] = [await freePort(), await freePort()];
  const persistDir = mkdtempSync(join(tmpdir(), `bench-${options.name}-`));
  let output = "";
  const child: ChildProcess = spawn(
    process.execPath,
    wranglerDevArgs({
      port,
      config: options.config,
      inspectorPort,
      persistTo: persistDir,
      envFiles: options.envFiles,
      extra: options.minify === undefined ? [] : [`--minify=${options.minify}`],
    }),
    { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"], env: childEnv({ ...process.env, WRANGLER_SEND_METRICS: "false" }) },
  );
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 100_000) output = output.slice(-50_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const forget = killOnExit(() => {
    if (child.exitCode !== null || !child.pid) return;
    for (const pid of [...descendantsOf(child.pid), child.pid]) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  });
  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      const workerd = descendantsOf(child.pid);
      child.kill("SIGINT");
      const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await new Promise((r) => child.once("exit", r));
      clearTimeout(killer);
      await awaitExit(workerd);
    }
    forget(); // only now: an exit while stopping still kills what is left
    rmSync(persistDir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`wrangler dev (${options.name}) exited early:\n${output}`);
    }
    if (
      await fetch(url, { method: "HEAD", signal: AbortSignal.timeout(2_000) }).then(
        () => true,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`wrangler dev (${options.name}) not ready in time:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    name: options.name,
    url,
    inspectorPort,
    persistDir,
    processIds: () => ({ wrangler: child.pid!, workerd: descendantsOf(child.pid!) }),
    output: () => output,
    stop,
  };
}
