// `npm run dev`: the whole product on this machine, no accounts and no keys.
//   1. the local data plane (Postgres + PostgREST + gateway on 127.0.0.1:54321), data kept
//      across restarts while the migrations are unchanged (`npm run dev -- --reset` to wipe);
//   2. `wrangler dev` (workerd) serving the agent Worker on 127.0.0.1:8787;
//   3. a ready bearer token for a seeded user, and curl lines to try.
// Ctrl-C stops everything. Ports: WORKER_PORT, LOCAL_GATEWAY_PORT, LOCAL_POSTGRES_PORT.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { bundleSkills } from "../../functions/agent/skills/bundle-skills.ts";
import { accessTokenClaims, SEEDED_USERS, signAccessToken } from "./auth-tokens.ts";
import { startDataPlane } from "./data-plane.ts";
import { writeDevEnvFile } from "./dev-env.ts";
import { loadOrCreateLocalKeys } from "./keys.ts";
import { supabaseDir } from "./paths.ts";
import { ensureStackHome } from "./postgres.ts";
import { awaitExit, descendantsOf, killStale } from "./processes.ts";

const repoRoot = resolve(supabaseDir, "..");
const workerPort = Number(process.env.WORKER_PORT ?? 8787);
const began = performance.now();

bundleSkills();
const home = ensureStackHome();
const keys = await loadOrCreateLocalKeys(join(home, "keys.json"));
const plane = await startDataPlane({
  keys,
  instance: { name: "dev", reset: process.argv.includes("--reset") },
  gatewayPort: Number(process.env.LOCAL_GATEWAY_PORT ?? 54321),
  postgresPort: Number(process.env.LOCAL_POSTGRES_PORT ?? 54322),
}).catch((error: Error) => {
  console.error(`npm run dev: ${error.message}`);
  process.exit(1);
});
console.log(`data plane ready in ${plane.timings.totalMs.toFixed(0)} ms at ${plane.url}`);

// The data plane refuses to start while another `npm run dev` owns it, so a wrangler still
// recorded here belongs to a run that was killed with -9: stop it before it holds the port.
const wranglerPidFile = join(home, "dev.wrangler.pid");
if (existsSync(wranglerPidFile)) await killStale(Number(readFileSync(wranglerPidFile, "utf8")), "wrangler");

// The generated settings first, then the developer's own .dev.vars (e.g. model keys) on top.
const envFiles = [writeDevEnvFile(home, { supabaseUrl: plane.url, anonKey: plane.anonKey, keys })];
if (existsSync(join(repoRoot, ".dev.vars"))) envFiles.push(join(repoRoot, ".dev.vars"));

const wrangler = spawn(
  process.execPath,
  [
    join(repoRoot, "node_modules", "wrangler", "bin", "wrangler.js"),
    "dev",
    "--ip",
    "127.0.0.1",
    "--port",
    String(workerPort),
    "--show-interactive-dev-session=false",
    ...envFiles.flatMap((file) => ["--env-file", file]),
  ],
  { cwd: repoRoot, stdio: "inherit", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
);
if (wrangler.pid) writeFileSync(wranglerPidFile, String(wrangler.pid));

let stopping = false;
async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  if (wrangler.exitCode === null && wrangler.pid) {
    // wrangler exits before its workerd processes do; wait for those too.
    const workerd = descendantsOf(wrangler.pid);
    wrangler.kill("SIGINT");
    await new Promise((r) => wrangler.once("exit", r));
    await awaitExit(workerd);
  }
  rmSync(wranglerPidFile, { force: true });
  await plane.stop();
  process.exit(code);
}
process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));
wrangler.on("exit", (code) => void shutdown(code ?? 1));

const workerUrl = `http://127.0.0.1:${workerPort}`;
for (;;) {
  const ok = await fetch(`${workerUrl}/health`).then(
    (r) => r.ok,
    () => false,
  );
  if (ok || stopping) break;
  await new Promise((r) => setTimeout(r, 100));
}
if (!stopping) {
  const alice = SEEDED_USERS.alice;
  const token = await signAccessToken(
    keys,
    accessTokenClaims(alice.id, { email: alice.email, exp: Math.floor(Date.now() / 1000) + 86_400 }),
  );
  console.log(`
Local stack ready in ${((performance.now() - began) / 1000).toFixed(1)} s
  Worker     ${workerUrl}            (wrangler dev / workerd)
  Data API   ${plane.url}/rest/v1   (PostgREST; JWKS at /auth/v1/.well-known/jwks.json)
  Postgres   postgres://postgres:postgres@127.0.0.1:${plane.postgresPort}/postgres

Dev bearer token for alice (${alice.id}), valid 24 h:
  export TOKEN=${token}
  (another user: npm run -s dev:token -- bob)

Try:
  curl -s ${workerUrl}/health
  curl -s -H "Authorization: Bearer $TOKEN" ${workerUrl}/api/v1/me

Ctrl-C stops everything.`);
}
