// What recording a run costs: database round trips per run, and added latency with
// persistence on versus off. Real runAgent, real data plane (Postgres + PostgREST), an instant
// scripted model doing a typical run (intent, a skill read, calendar.read, an answer). Tool
// payloads go to an in-memory store here (R2 writes run in parallel with the run in production).
// Run: npm run bench:persistence [-- --runs 100]
import { parseArgs } from "node:util";
import type { PayloadStore } from "../../functions/agent/persistence/payload-store.ts";
import { createRunRecorder } from "../../functions/agent/persistence/run-recorder.ts";
import { runAgent } from "../../functions/agent/runtime/run-agent.ts";
import { createUserDatabase } from "../../functions/lib/user-database.ts";
import { SEEDED_USERS } from "../../supabase/local/auth-tokens.ts";
import { scriptedPair } from "../support/scripted-model.ts";
import { startRuntimeStack } from "./support/runtime-stack.ts";

const { values } = parseArgs({ options: { runs: { type: "string", default: "100" } } });
const runs = Number(values.runs);

const memoryStore = (): PayloadStore => {
  const objects = new Map<string, string>();
  return {
    bucket: "memory",
    put: async (path, body) => void objects.set(path, JSON.stringify(body)),
    get: async (path) => (objects.has(path) ? JSON.parse(objects.get(path)!) : undefined),
  };
};

const { plane, settings, skills } = await startRuntimeStack();
try {
  const userId = SEEDED_USERS.alice.id;
  const today = new Date().toISOString().slice(0, 10);

  async function once(persist: boolean): Promise<{ ms: number; roundTrips: number }> {
    const db = await createUserDatabase(settings, userId);
    const request = {
      threadId: `bench-${crypto.randomUUID()}`,
      runId: crypto.randomUUID(),
      userMessageId: "m",
      conversation: [{ role: "user" as const, text: "What's on today?" }],
      userContent: "What's on today?",
      attachments: [],
      timezone: "UTC",
      locale: "en" as const,
    };
    const { intent, execution } = scriptedPair({ objective: "today", requires_tool: true }, [
      { tool: "view_skill_file", input: { path: "calendar/SKILL.md" } },
      { tool: "project_cli", input: { module: "calendar", method: "read", input: { mode: "day", date: today, timezone: "UTC" } } },
      { text: "You have two events today." },
    ]);
    const recorder = persist
      ? createRunRecorder({ db, userId, request, models: { intent: "mock", execution: "mock" }, payloads: memoryStore() })
      : undefined;
    let last = "";
    const began = performance.now();
    await runAgent(
      request,
      {
        models: { intent, execution, labels: { intent: "m", execution: "m" }, provider: "mock", demo: false },
        cli: { db, userId },
        skills,
        agent: settings.agent,
        ...(recorder ? { recorder } : {}),
      },
      (event) => (last = event.type),
      new AbortController().signal,
    );
    if (last !== "RUN_FINISHED") throw new Error(`run ended with ${last}`);
    return { ms: performance.now() - began, roundTrips: (recorder?.roundTrips ?? 0) + 1 /* calendar.read */ };
  }

  const stats = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return { p50: sorted[Math.floor(sorted.length / 2)]!, p99: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]! };
  };
  for (let i = 0; i < 10; i++) {
    // warm-up
    await once(true);
    await once(false);
  }
  const on: number[] = [];
  const off: number[] = [];
  let trips = { on: 0, off: 0 };
  for (let i = 0; i < runs; i++) {
    // Interleaved, so drift on this shared 2-core machine hits both sides alike.
    const a = await once(true);
    const b = await once(false);
    on.push(a.ms);
    off.push(b.ms);
    trips = { on: a.roundTrips, off: b.roundTrips };
  }
  const s = { on: stats(on), off: stats(off) };
  console.log(`\nPersistence cost per run (${runs} runs each, interleaved; ${new Date().toISOString()})`);
  console.log(
    `  database round trips per run: ${trips.on} with persistence (record_run_start with earlier turns, calendar.read, record_run_finish), ${trips.off} without`,
  );
  console.log(`  latency p50: ${s.on.p50.toFixed(1)} ms on, ${s.off.p50.toFixed(1)} ms off  -> +${(s.on.p50 - s.off.p50).toFixed(1)} ms`);
  console.log(`  latency p99: ${s.on.p99.toFixed(1)} ms on, ${s.off.p99.toFixed(1)} ms off`);
} finally {
  await plane.stop();
}
