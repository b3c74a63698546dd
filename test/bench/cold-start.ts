// Cold-start figures for the local stack (printed, never asserted):
//   - data plane on a brand-new machine (empty stack home: binaries copied, template built);
//   - data plane restart from the prepared template (what `npm run dev` and the tests do);
//   - `wrangler dev` from spawn until GET /health answers 200 through the data plane.
// Run: npm run bench:cold-start [-- --runs 5]
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startDataPlane } from "../../supabase/local/data-plane.ts";
import { writeDevEnvFile } from "../../supabase/local/dev-env.ts";
import { generateLocalKeys } from "../../supabase/local/keys.ts";
import { awaitExit, descendantsOf, freePort } from "../../supabase/local/processes.ts";
import { repoRoot, wranglerDevArgs } from "../../supabase/local/wrangler-dev-args.ts";

const { values } = parseArgs({ options: { runs: { type: "string", default: "5" } } });
const runs = Number(values.runs);
const keys = await generateLocalKeys();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const row = (label: string, xs: number[]) =>
  console.log(
    `${label.padEnd(44)} median ${median(xs).toFixed(0).padStart(5)} ms   min ${Math.min(...xs)
      .toFixed(0)
      .padStart(5)}   max ${Math.max(...xs)
      .toFixed(0)
      .padStart(5)}   (n=${xs.length})`,
  );

// 1. Brand-new stack home.
const home = join(tmpdir(), `edge-agent-bench-${process.pid}`);
process.env.LOCAL_STACK_HOME = home;
let began = performance.now();
const first = await startDataPlane({ keys });
const firstMs = performance.now() - began;
await first.stop();

// 2. Restarts from the template.
const restarts: number[] = [];
for (let i = 0; i < runs; i++) {
  began = performance.now();
  const plane = await startDataPlane({ keys });
  restarts.push(performance.now() - began);
  await plane.stop();
}

// 3. wrangler dev against a running data plane.
const plane = await startDataPlane({ keys });
const envFile = writeDevEnvFile(home, { supabaseUrl: plane.url, anonKey: plane.anonKey, keys });
const wranglerReady: number[] = [];
for (let i = 0; i < Math.min(runs, 3); i++) {
  const port = await freePort();
  began = performance.now();
  const wrangler = spawn(process.execPath, wranglerDevArgs({ port, envFiles: [envFile] }), {
    cwd: repoRoot,
    stdio: "ignore",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
  while (
    !(await fetch(`http://127.0.0.1:${port}/health`).then(
      (r) => r.ok,
      () => false,
    ))
  )
    await new Promise((r) => setTimeout(r, 20));
  wranglerReady.push(performance.now() - began);
  const workerd = descendantsOf(wrangler.pid!);
  wrangler.kill("SIGINT");
  await new Promise((r) => wrangler.once("exit", r));
  await awaitExit(workerd);
}
await plane.stop();
rmSync(home, { recursive: true, force: true });

console.log(`\nLocal stack cold start (${new Date().toISOString()}, Node ${process.version})`);
row("data plane, new machine (template built)", [firstMs]);
console.log(
  `  of which template ${first.timings.templateMs.toFixed(0)} ms, Postgres ${first.timings.postgresMs.toFixed(0)} ms, PostgREST ${first.timings.postgrestMs.toFixed(0)} ms`,
);
row("data plane, restart from template", restarts);
row("wrangler dev, spawn -> /health 200", wranglerReady);
