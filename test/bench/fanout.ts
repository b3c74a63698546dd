// How to fan a run's events out to resuming clients: the database or a Durable Object per run?
// Measures both on this machine (printed, never asserted):
//   database: appending one event batch through PostgREST (what a run would pay ~12 times),
//             and a follower's poll for new events;
//   Durable Object (RunHub, on wrangler dev): replaying a finished run's whole event log, and a
//             full agent run, every event of which goes through the hub.
// Run: npm run bench:fanout [-- --runs 100]
import { type ChildProcess, spawn } from "node:child_process";
import { parseArgs } from "node:util";
import pg from "pg";
import { bundleSkills } from "../../functions/agent/skills/bundle-skills.ts";
import { accessTokenClaims, SEEDED_USERS, signAccessToken } from "../../supabase/local/auth-tokens.ts";
import { startDataPlane } from "../../supabase/local/data-plane.ts";
import { writeDevEnvFile } from "../../supabase/local/dev-env.ts";
import { generateLocalKeys } from "../../supabase/local/keys.ts";
import { ensureStackHome, SUPERUSER_PASSWORD } from "../../supabase/local/postgres.ts";
import { awaitExit, descendantsOf, freePort } from "../../supabase/local/processes.ts";
import { repoRoot, wranglerDevArgs } from "../../supabase/local/wrangler-dev-args.ts";

const { values } = parseArgs({ options: { runs: { type: "string", default: "100" } } });
const runs = Number(values.runs);
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const timed = async (fn: () => Promise<unknown>) => {
  const began = performance.now();
  await fn();
  return performance.now() - began;
};

bundleSkills();
const keys = await generateLocalKeys();
const plane = await startDataPlane({ keys });
let wrangler: ChildProcess | undefined;
try {
  // The database alternative: an event table like the one it would need, behind PostgREST.
  const admin = new pg.Client({
    host: "127.0.0.1",
    port: plane.postgresPort,
    user: "postgres",
    password: SUPERUSER_PASSWORD,
    database: "postgres",
  });
  await admin.connect();
  await admin.query(`create table public.bench_run_events (owner_id uuid not null default auth.uid(), run_id text not null, seq int not null, event jsonb not null, primary key (owner_id, run_id, seq));
    alter table public.bench_run_events enable row level security;
    create policy own on public.bench_run_events for all to authenticated using (owner_id = auth.uid()) with check (owner_id = auth.uid());
    notify pgrst, 'reload schema';`);
  await admin.end();
  await new Promise((r) => setTimeout(r, 500));
  const token = await signAccessToken(keys, accessTokenClaims(SEEDED_USERS.alice.id));
  const rest = (path: string, init: RequestInit = {}) =>
    fetch(`${plane.url}/rest/v1/${path}`, {
      ...init,
      headers: { apikey: plane.anonKey, authorization: `Bearer ${token}`, "content-type": "application/json", ...init.headers },
    });
  const event = (seq: number) => ({ type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: `word${seq} `, timestamp: Date.now() });
  const insertMs: number[] = [];
  const pollMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const runId = `r${i}`;
    insertMs.push(
      await timed(() =>
        rest("bench_run_events", {
          method: "POST",
          headers: { prefer: "return=minimal" },
          body: JSON.stringify([0, 1, 2].map((seq) => ({ run_id: runId, seq, event: event(seq) }))),
        }),
      ),
    );
    pollMs.push(await timed(async () => (await rest(`bench_run_events?run_id=eq.${runId}&seq=gt.0&order=seq`)).json()));
  }

  // The Durable Object: a real run through the hub, then replays of its log.
  const envFile = writeDevEnvFile(ensureStackHome(), { supabaseUrl: plane.url, anonKey: plane.anonKey, keys });
  const port = await freePort();
  wrangler = spawn(process.execPath, wranglerDevArgs({ port, inspectorPort: await freePort(), envFiles: [envFile] }), {
    cwd: repoRoot,
    stdio: "ignore",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
  const url = `http://127.0.0.1:${port}`;
  while (
    !(await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    ))
  )
    await new Promise((r) => setTimeout(r, 50));
  const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const runMs: number[] = [];
  const replayMs: number[] = [];
  let events = 0;
  for (let i = 0; i < runs; i++) {
    const runId = crypto.randomUUID();
    const body = JSON.stringify({
      threadId: "fanout",
      runId,
      messages: [{ id: "m", role: "user", content: "What is on my calendar today?" }],
      state: {},
      tools: [],
      context: [],
      forwardedProps: { timezone: "UTC" },
    });
    runMs.push(
      await timed(
        async () =>
          (events = (await (await fetch(`${url}/api/v1/agent/runs`, { method: "POST", headers: auth, body })).text())
            .split("\n\n")
            .filter(Boolean).length),
      ),
    );
    replayMs.push(await timed(async () => (await fetch(`${url}/api/v1/agent/runs/${runId}/events?after=-1`, { headers: auth })).text()));
  }

  console.log(`\nLive fan-out: database vs Durable Object (${runs} samples each, ${new Date().toISOString()})`);
  console.log(
    `  database: append one event batch through PostgREST   p50 ${p50(insertMs).toFixed(1)} ms (one per batch of events emitted in the same tick)`,
  );
  console.log(
    `  database: a follower's poll for new events             p50 ${p50(pollMs).toFixed(1)} ms, plus up to one poll interval of delay per event`,
  );
  console.log(`  Durable Object: full agent run, every event via the hub p50 ${p50(runMs).toFixed(1)} ms (${events} events)`);
  console.log(`  Durable Object: resume replay of a finished run's log   p50 ${p50(replayMs).toFixed(1)} ms`);
} finally {
  if (wrangler?.pid) {
    const workerd = descendantsOf(wrangler.pid);
    wrangler.kill("SIGINT");
    await new Promise((r) => wrangler!.once("exit", r));
    await awaitExit(workerd);
  }
  await plane.stop();
}
