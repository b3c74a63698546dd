// `npm run dev`: the whole product on this machine, no accounts and no keys.
//   1. the local data plane (Postgres + PostgREST + gateway on 127.0.0.1:54321), data kept
//      across restarts while the migrations are unchanged (`npm run dev -- --reset` to wipe);
//   2. `wrangler dev` (workerd) serving the agent Worker on 127.0.0.1:8787, and a second one
//      serving the Tool Agent on 127.0.0.1:8788 (the agent's service binding finds it through
//      wrangler's local dev registry), with the seeded tools registered;
//   3. a ready bearer token for a seeded user, a Tool Agent admin key, and curl lines to try.
// Ctrl-C stops everything. Ports: WORKER_PORT, TOOL_AGENT_PORT, LOCAL_GATEWAY_PORT,
// LOCAL_POSTGRES_PORT.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bundleSkills } from "../../functions/agent/skills/bundle-skills.ts";
import { buildPlaygroundIfStale } from "../../functions/playground/build.ts";
import { accessTokenClaims, SEEDED_USERS, signAccessToken } from "./auth-tokens.ts";
import { startDataPlane } from "./data-plane.ts";
import { writeDevEnvFile } from "./dev-env.ts";
import { loadOrCreateLocalKeys } from "./keys.ts";
import { ensureStackHome } from "./postgres.ts";
import { awaitExit, descendantsOf, freePort, killStale } from "./processes.ts";
import { devAdminKey, registerSeedTools, writeToolAgentEnvFile } from "./tool-agent-dev.ts";
import { repoRoot, type WranglerDevArgs, wranglerDevArgs } from "./wrangler-dev-args.ts";

const workerPort = Number(process.env.WORKER_PORT ?? 8787);
const toolAgentPort = Number(process.env.TOOL_AGENT_PORT ?? 8788);
const began = performance.now();

bundleSkills();
await buildPlaygroundIfStale();
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
if (existsSync(wranglerPidFile)) {
  for (const pid of readFileSync(wranglerPidFile, "utf8").split(/\s+/).filter(Boolean)) await killStale(Number(pid), "wrangler");
}

// The generated settings first, then the developer's own .dev.vars (e.g. model keys) on top.
const workerUrl = `http://127.0.0.1:${workerPort}`;
const toolAgentUrl = `http://127.0.0.1:${toolAgentPort}`;
const generated = writeDevEnvFile(home, { supabaseUrl: plane.url, anonKey: plane.anonKey, keys, toolAgentUrl });
const envFiles = [generated];
if (existsSync(join(repoRoot, ".dev.vars"))) envFiles.push(join(repoRoot, ".dev.vars"));
// The playground on the agent's origin calls the Tool Agent from the browser.
const toolAgentEnvFiles = [generated, writeToolAgentEnvFile(home, [workerUrl, `http://localhost:${workerPort}`])];
const toolAgentDevVars = join(repoRoot, "functions", "tool-agent", ".dev.vars");
if (existsSync(toolAgentDevVars)) toolAgentEnvFiles.push(toolAgentDevVars);

function startWrangler(args: WranglerDevArgs) {
  return spawn(process.execPath, wranglerDevArgs(args), {
    cwd: repoRoot,
    stdio: "inherit",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
}

const wranglers = [
  startWrangler({ port: workerPort, envFiles }),
  // Its own inspector port; --test-scheduled lets GET /__scheduled run its cron handler.
  startWrangler({
    port: toolAgentPort,
    config: "functions/tool-agent/wrangler.toml",
    inspectorPort: await freePort(),
    envFiles: toolAgentEnvFiles,
    extra: ["--test-scheduled"],
  }),
];
writeFileSync(wranglerPidFile, wranglers.map((w) => w.pid ?? "").join(" "));

let stopping = false;
async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  await Promise.all(
    wranglers.map(async (wrangler) => {
      if (wrangler.exitCode !== null || !wrangler.pid) return;
      // wrangler exits before its workerd processes do; wait for those too.
      const workerd = descendantsOf(wrangler.pid);
      wrangler.kill("SIGINT");
      await new Promise((r) => wrangler.once("exit", r));
      await awaitExit(workerd);
    }),
  );
  rmSync(wranglerPidFile, { force: true });
  await plane.stop();
  process.exit(code);
}
process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));
for (const wrangler of wranglers) wrangler.on("exit", (code) => void shutdown(code ?? 1));

async function untilHealthy(url: string) {
  for (;;) {
    const ok = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok || stopping) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

await Promise.all([untilHealthy(workerUrl), untilHealthy(toolAgentUrl)]);
if (!stopping) {
  const toolKey = await devAdminKey(home, plane.postgresPort);
  const seeded = await registerSeedTools(toolAgentUrl, toolKey);
  const alice = SEEDED_USERS.alice;
  const token = await signAccessToken(
    keys,
    accessTokenClaims(alice.id, { email: alice.email, exp: Math.floor(Date.now() / 1000) + 86_400 }),
  );
  console.log(`
Local stack ready in ${((performance.now() - began) / 1000).toFixed(1)} s
  Worker     ${workerUrl}            (wrangler dev / workerd)
  Tool Agent ${toolAgentUrl}            (second Worker; ${seeded.length ? `registered ${seeded.join(", ")}` : "seeded tools already registered"})
  Data API   ${plane.url}/rest/v1   (PostgREST; JWKS at /auth/v1/.well-known/jwks.json)
  Postgres   postgres://postgres:postgres@127.0.0.1:${plane.postgresPort}/postgres

Playground (chat, the Tool Agent, every card) in a browser; sign in as Alice or Bob:
  ${workerUrl}/playground/#tool_key=${toolKey}

Dev bearer token for alice (${alice.id}), valid 24 h:
  export TOKEN=${token}
  (another user: npm run -s dev:token -- bob)

Tool Agent admin key (search, run and manage tools; kept across restarts):
  export TOOL_KEY=${toolKey}
  (a key with fewer scopes: npm run -s dev:tool-key -- search invoke)

Try:
  curl -s ${workerUrl}/health
  curl -s -H "Authorization: Bearer $TOKEN" ${workerUrl}/api/v1/me
  curl -s -H "Authorization: Bearer $TOOL_KEY" -H 'content-type: application/json' ${toolAgentUrl}/search_tools -d '{"keyword":"单位"}'
  curl -s -H "Authorization: Bearer $TOOL_KEY" -H 'content-type: application/json' ${toolAgentUrl}/select_tool -d '{"tool_id":"unit_convert","params":{"value":10,"from":"km","to":"mi"}}'
  curl -s -H "Authorization: Bearer $TOOL_KEY" ${toolAgentUrl}/tools/status
  curl -s -X POST -H "Authorization: Bearer $TOOL_KEY" ${toolAgentUrl}/tools/unit_convert/stop
  curl -s -H "Authorization: Bearer $TOOL_KEY" -H 'content-type: application/json' ${toolAgentUrl}/agent/chat -d '{"message":"我需要把公里换算成英里"}'
  (MCP clients: ${toolAgentUrl}/mcp with the same bearer key)

Ask the Tool Agent for a tool it does not have; the offline demo coding model builds it:
  export TASK=$(curl -s -H "Authorization: Bearer $TOOL_KEY" -H 'content-type: application/json' ${toolAgentUrl}/create_tool -d '{"description":"帮我创建一个文本摘要工具"}' | sed -E 's/.*"task_id":"([^"]+)".*/\\1/')
  curl -s -H "Authorization: Bearer $TOOL_KEY" "${toolAgentUrl}/tasks/$TASK?log=0"
  curl -s -H "Authorization: Bearer $TOOL_KEY" -H 'content-type: application/json' ${toolAgentUrl}/select_tool -d '{"tool_id":"text_summarize","params":{"text":"今天天气很好。我们去公园散步。然后回家吃饭。","max_chars":15}}'

Ctrl-C stops everything.`);
}
