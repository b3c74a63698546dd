// The Workers the run benchmarks compare, on one data plane: the agent, the floor (the run's
// unavoidable work with no framework, replaying a run captured from the agent) and a bare SSE
// endpoint. Each on its own `wrangler dev`.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundleSkills } from "../../../functions/agent/skills/bundle-skills.ts";
import { accessTokenClaims, SEEDED_USERS, signAccessToken } from "../../../supabase/local/auth-tokens.ts";
import { type DataPlane, startDataPlane } from "../../../supabase/local/data-plane.ts";
import { writeDevEnvFile } from "../../../supabase/local/dev-env.ts";
import { generateLocalKeys, type LocalKeys } from "../../../supabase/local/keys.ts";
import { encodeFloorScript, FLOOR_SCRIPT_VAR, type FloorScript } from "../floor/run-script.ts";
import { captureRun } from "./capture-run.ts";
import { startDataPlaneTap } from "./data-plane-tap.ts";
import { type CpuGroup, commandOf } from "./proc-cpu.ts";
import { type BenchWorker, repoRoot, startBenchWorker } from "./wrangler-worker.ts";

export interface BenchStack {
  plane: DataPlane;
  keys: LocalKeys;
  /** Alice's bearer token, valid one hour. */
  token: string;
  home: string;
  /** The agent's env file for a data plane at `supabaseUrl` (extra lines appended). */
  agentEnvFile(supabaseUrl: string, extra?: Record<string, string>): string;
  stop(): Promise<void>;
}

export async function startBenchStack(): Promise<BenchStack> {
  bundleSkills();
  const keys = await generateLocalKeys();
  const plane = await startDataPlane({ keys });
  const home = mkdtempSync(join(tmpdir(), "bench-stack-"));
  return {
    plane,
    keys,
    token: await signAccessToken(keys, accessTokenClaims(SEEDED_USERS.alice.id)),
    home,
    agentEnvFile(supabaseUrl, extra = {}) {
      const file = writeDevEnvFile(mkdtempSync(join(home, "env-")), { supabaseUrl, anonKey: plane.anonKey, keys });
      const lines = Object.entries(extra).map(([k, v]) => `${k}=${v}\n`);
      if (lines.length > 0) writeFileSync(file, lines.join(""), { flag: "a" });
      return file;
    },
    async stop() {
      await plane.stop();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

export const agentConfig = join(repoRoot, "wrangler.toml");
export const floorConfig = join(repoRoot, "test/bench/floor/wrangler.toml");
export const bareConfig = join(repoRoot, "test/bench/bare-sse/wrangler.toml");

/**
 * The agent's wrangler.toml for benchmarks, written to the stack's temp dir with `main` and the
 * [alias] paths made absolute and without [build]: startBenchStack has bundled the skills already, and a build
 * that rewrites a watched file makes wrangler dev restart the Worker mid-benchmark.
 * Without `observability`, also without [observability] (wrangler dev's local trace store).
 */
export function agentBenchConfig(stack: BenchStack, options: { observability: boolean } = { observability: true }): string {
  const drop = options.observability ? /^\[build\]/ : /^\[(observability|observability\.logs|build)\]/;
  const sections = readFileSync(agentConfig, "utf8").split(/^(?=\[)/m);
  const config = sections
    .filter((section) => !drop.test(section))
    .join("")
    .replace(/^main = "(.+)"$/m, (_, main: string) => `main = "${join(repoRoot, main)}"`)
    // [alias] stand-ins are paths relative to the repo, as are `main` and the [assets] directory
    .replace(/^("[^"]+") = "\.\/(.+)"$/gm, (_, name: string, path: string) => `${name} = "${join(repoRoot, path)}"`)
    .replace(/^directory = "\.\/(.+)"$/m, (_, path: string) => `directory = "${join(repoRoot, path)}"`);
  const file = join(stack.home, `agent${options.observability ? "" : "-no-observability"}.toml`);
  writeFileSync(file, config);
  return file;
}

/** A throwaway agent behind a tap captures one demo run: the floor's script. */
export async function captureFloorScript(stack: BenchStack): Promise<FloorScript> {
  const tap = await startDataPlaneTap(stack.plane.url);
  const agent = await startBenchWorker({ name: "capture", config: agentBenchConfig(stack), envFiles: [stack.agentEnvFile(tap.url)] });
  try {
    return await captureRun(agent, tap, stack.token);
  } finally {
    await agent.stop();
    await tap.stop();
  }
}

export function startFloor(stack: BenchStack, script: FloorScript): Promise<BenchWorker> {
  const envFile = stack.agentEnvFile(stack.plane.url, { [FLOOR_SCRIPT_VAR]: encodeFloorScript(script) });
  return startBenchWorker({ name: "floor", config: floorConfig, envFiles: [envFile] });
}

/** CPU groups of one Worker: wrangler's own Node process, its proxy workerd, the Worker's workerd. */
export function workerCpuGroups(worker: BenchWorker): CpuGroup[] {
  const workerd = () => worker.processIds().workerd.filter((pid) => commandOf(pid).includes("workerd"));
  return [
    { name: `${worker.name}: workerd (the Worker)`, pids: () => workerd().filter((pid) => commandOf(pid).includes("--inspector-addr")) },
    {
      name: `${worker.name}: workerd (wrangler's proxy)`,
      pids: () => workerd().filter((pid) => !commandOf(pid).includes("--inspector-addr")),
    },
    { name: `${worker.name}: wrangler (node)`, pids: () => [worker.processIds().wrangler] },
  ];
}
