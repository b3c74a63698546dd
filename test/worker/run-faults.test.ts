// Faults end runs within a bound, and records stay true (inside workerd, real data plane).
//   - a hung PostgREST or Postgres (processes stopped with SIGSTOP on the faults plane) ends a
//     run with DATABASE_UNAVAILABLE and answers history/threads with 503, within the deadline;
//   - a run refused before it was recorded leaves its run id free for a retry;
//   - the hub's idle limit (RUN_IDLE_TIMEOUT_SECONDS=5 in the test bindings) follows the last
//     activity, and a run closed as abandoned is also finished in the runs table;
//   - the hub finishes a run's record only when the run could not: a recorded end leaves it
//     nothing but retention, an unrecorded one a retry within seconds.
//   - a hub that cannot store events costs only resumes: the POST streams and records the whole run;
//     a hub slow to store the run's end does not hold the POST's stream open.
//   - a hub that does not answer at all: starting, resuming and cancelling are a 503 within the deadline.
//   - a signing key that does not import fails the start before the run id is claimed.
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, inject, test } from "vitest";
import { createApp } from "../../functions/agent/app.ts";
import type { RunOwner } from "../../functions/agent/run-hub/close-run-record.ts";
import { type AppendNote, type RunHub, runHub } from "../../functions/agent/run-hub/run-hub.ts";
import type { AgentEvent } from "../../functions/agent/runtime/ag-ui-events.ts";
import { loadSettings } from "../../functions/agent/settings.ts";
import { createUserDatabase } from "../../functions/lib/user-database.ts";
import { SEEDED_USERS } from "../../supabase/local/auth-tokens.ts";
import { EventType, parseSse, runAgentRequest, runInput, scriptedModels, tokenFor, verify } from "./support/agent.ts";

const ALICE = SEEDED_USERS.alice.id;
const IDLE_MS = 5_000;
let aliceToken: string;
// The faults plane: only this file stops, starts, hangs and resumes it.
const control = async (path: string) =>
  expect((await fetch(`${inject("localStack").outage.controlUrl}/faults${path}`, { method: "POST" })).status).toBe(204);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const script = { intent: { objective: "today", requires_tool: false }, steps: [{ text: "Nothing today." }] };
const faultsEnv = () => ({ SUPABASE_URL: inject("localStack").faults.supabaseUrl, DATA_PLANE_TIMEOUT_MS: "1000" });

beforeAll(async () => {
  aliceToken = await tokenFor(ALICE);
});

describe("a hung data plane", () => {
  afterEach(async () => {
    await control("/postgrest/resume");
    await control("/postgres/resume");
    await control("/postgres/start");
  });

  for (const target of ["postgrest", "postgres"] as const) {
    test(`${target} hung: the run ends with DATABASE_UNAVAILABLE; history and threads answer 503`, async () => {
      await control(`/${target}/pause`);
      const began = performance.now();
      const input = runInput("today?");
      const { events } = await runAgentRequest({ token: aliceToken, input, script, env: faultsEnv() });
      console.log(`RUN_ERROR with ${target} hung (DATA_PLANE_TIMEOUT_MS=1000): ${(performance.now() - began).toFixed(0)} ms`);
      expect(events.map((event) => event.type)).toEqual([EventType.RUN_STARTED, EventType.RUN_ERROR]);
      expect(events.at(-1)).toMatchObject({ code: "DATABASE_UNAVAILABLE" });

      const app = createApp();
      const headers = { authorization: `Bearer ${aliceToken}` };
      for (const path of [`/api/v1/agent/runs/${input.threadId}/history`, "/api/v1/agent/threads"]) {
        const response = await app.request(path, { headers }, { ...env, ...faultsEnv() });
        expect(response.status, path).toBe(503);
        expect(await response.json()).toMatchObject({ error: { code: "UPSTREAM_UNAVAILABLE", retryable: true } });
      }
    });
  }

  test("a run refused before it was recorded can be started again with the same run id", async () => {
    await control("/postgres/stop");
    const input = runInput("today?");
    const refused = await runAgentRequest({ token: aliceToken, input, script, env: faultsEnv() });
    expect(refused.events.at(-1)).toMatchObject({ type: EventType.RUN_ERROR, code: "DATABASE_UNAVAILABLE" });
    await control("/postgres/start");
    const retried = await runAgentRequest({ token: aliceToken, input, script, env: faultsEnv() });
    expect(retried.response.status).toBe(200);
    expect(retried.events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED });
  });
});

describe("the run hub's idle limit", () => {
  const append = (hub: ReturnType<typeof runHub>, n: number) => hub.append([{ type: EventType.CUSTOM, name: "tick", value: n } as never]);

  test("follows the last activity: a run that keeps streaming past the limit is not ended", async () => {
    const { runDurableObjectAlarm } = await import("cloudflare:test");
    const runId = `busy-${crypto.randomUUID()}`;
    const hub = runHub(env, ALICE, runId);
    expect(await hub.claim()).toBe(true);
    await hub.append([{ type: EventType.RUN_STARTED, threadId: "t", runId } as never]);
    const until = Date.now() + IDLE_MS * 1.6;
    for (let n = 0; Date.now() < until; n++) {
      await sleep(1_000);
      await append(hub, n);
      await runDurableObjectAlarm(hub);
      expect((await hub.info()).finished).toBe(false);
    }
  });

  test("an idle run is ended, and a follower that arrives late gets the end at once", async () => {
    const runId = `idle-${crypto.randomUUID()}`;
    const hub = runHub(env, ALICE, runId);
    expect(await hub.claim()).toBe(true);
    await hub.append([{ type: EventType.RUN_STARTED, threadId: "t", runId } as never]);
    await sleep(IDLE_MS + 500);
    // No alarm driven here: the resume itself must not wait for one.
    const resumed = await createApp().request(
      `/api/v1/agent/runs/${runId}/events?after=-1`,
      { headers: { authorization: `Bearer ${aliceToken}` } },
      env,
    );
    const events = parseSse(await resumed.text());
    expect(events.map((event) => event.type)).toEqual([EventType.RUN_STARTED, EventType.RUN_ERROR]);
    expect(events[1]).toMatchObject({ code: "RUN_ABANDONED" });
  });

  test("a run whose Worker vanished is ended for its followers and finished in the runs table", async () => {
    const { runDurableObjectAlarm } = await import("cloudflare:test");
    const settings = loadSettings(env);
    if (!settings.ok) throw new Error("test settings invalid");
    const db = await createUserDatabase(settings.settings, ALICE);
    const input = runInput("lost");
    // What the run did before its Worker went away: claimed the id and recorded its start.
    const hub = runHub(env, ALICE, input.runId);
    expect(await hub.claim({ userId: ALICE, runId: input.runId })).toBe(true);
    const started = await db.rpc("record_run_start", {
      p_thread_id: input.threadId,
      p_run_id: input.runId,
      p_title: "lost",
      p_models: {},
      p_user_content: "lost",
      p_user_metadata: {},
      p_earlier_limit: 0,
    });
    expect(started.error).toBeNull();
    await hub.append([{ type: EventType.RUN_STARTED, threadId: input.threadId, runId: input.runId } as never]);
    const follower = Promise.resolve(
      createApp().request(`/api/v1/agent/runs/${input.runId}/events?after=-1`, { headers: { authorization: `Bearer ${aliceToken}` } }, env),
    ).then((r) => r.text());

    await sleep(IDLE_MS + 500);
    await runDurableObjectAlarm(hub);
    const events = parseSse(await follower);
    expect(events.at(-1)).toMatchObject({ type: EventType.RUN_ERROR, code: "RUN_ABANDONED" });

    const deadline = Date.now() + 15_000;
    let row: { status: string; error_code: string | null } | null = null;
    while (Date.now() < deadline) {
      await runDurableObjectAlarm(hub);
      row = (await db.from("runs").select("status, error_code").eq("id", input.runId).single()).data;
      if (row?.status !== "running") break;
      await sleep(500);
    }
    expect(row).toEqual({ status: "failed", error_code: "RUN_ABANDONED" });
  }, 30_000);
});

describe("the hub's share of a run's record", () => {
  afterEach(() => control("/postgres/start"));

  /** What the hub keeps about a run: whether its record is still the hub's to finish, and when it looks next. */
  /**
   * The hub's state once it holds the run's end. The POST's stream comes from the run itself
   * (decision D42) and ends with the terminal event, which the hub stores a moment later.
   */
  async function hubState(runId: string) {
    const { runInDurableObject } = await import("cloudflare:test");
    const read = () =>
      runInDurableObject(runHub(env, ALICE, runId), async (_instance, state) => ({
        meta: await state.storage.get<{ finished?: boolean; recordOpen?: boolean; unrecordedEnd?: unknown }>("meta"),
        alarm: await state.storage.getAlarm(),
      }));
    const deadline = Date.now() + 5_000;
    let state = await read();
    while (!state.meta?.finished && Date.now() < deadline) {
      await sleep(20);
      state = await read();
    }
    return state;
  }

  async function runWith(scripted: ReturnType<typeof scriptedModels>) {
    const input = runInput("today?");
    const response = await createApp({ models: () => scripted.models }).request(
      "/api/v1/agent/runs",
      {
        method: "POST",
        headers: { authorization: `Bearer ${aliceToken}`, "content-type": "application/json" },
        body: JSON.stringify(input),
      },
      { ...env, ...faultsEnv() },
    );
    return { input, events: parseSse(await response.text()) };
  }

  test("a run that recorded its end leaves the hub nothing to finish", async () => {
    const { input, events } = await runWith(scriptedModels(script));
    expect(events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED });
    const { meta, alarm } = await hubState(input.runId);
    expect(meta?.recordOpen).toBe(false);
    expect(meta?.unrecordedEnd).toBeUndefined();
    // Only retention is left: the next look is a day away, not a retry in seconds.
    expect(alarm).toBeGreaterThan(Date.now() + 60 * 60_000);
  });

  test("a run whose end could not be recorded leaves it to the hub, which retries soon", async () => {
    const scripted = scriptedModels(script);
    const answer = scripted.execution.doStream;
    scripted.execution.doStream = async (options) => {
      await control("/postgres/stop"); // the start is recorded; the end will not be
      return (answer as (o: typeof options) => ReturnType<typeof answer>)(options);
    };
    const { input, events } = await runWith(scripted);
    expect(events.at(-1)).toMatchObject({ type: EventType.RUN_ERROR, code: "DATABASE_UNAVAILABLE" });
    const { meta, alarm } = await hubState(input.runId);
    expect(meta?.recordOpen).toBe(true);
    expect(meta?.unrecordedEnd).toEqual({ status: "failed", errorCode: "DATABASE_UNAVAILABLE" });
    expect(alarm).toBeLessThan(Date.now() + 60_000);
  }, 30_000);
});

/** The real hubs (as the RUN_HUB binding), except for the calls a fault replaces. */
function hubsWith(fault: (hub: DurableObjectStub<RunHub>) => { append: (events: AgentEvent[], note?: AppendNote) => Promise<unknown> }) {
  const hubs = env.RUN_HUB;
  return {
    idFromName: (name: string) => hubs.idFromName(name),
    get: (id: DurableObjectId) => {
      const hub = hubs.get(id);
      return {
        start: (owner: RunOwner, first: AgentEvent[]) => hub.start(owner, first),
        isCancelRequested: () => hub.isCancelRequested(),
        refused: () => hub.refused(),
        ...fault(hub),
      };
    },
  };
}

describe("a run hub that cannot store events", () => {
  test("the POST still streams the whole run and records it; only the hub's log misses the events", async () => {
    // Every append fails (the object unreachable or its storage full).
    const appendsFail = hubsWith(() => ({ append: () => Promise.reject(new Error("storage unavailable")) }));
    const input = runInput("today?");
    const run = await runAgentRequest({ token: aliceToken, input, script, env: { RUN_HUB: appendsFail } });
    expect(run.response.status).toBe(200);
    await verify(run.events as never);
    expect(run.events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED });
    const answer = run.events.flatMap((event) =>
      event.type === EventType.TEXT_MESSAGE_CONTENT ? [(event as unknown as { delta: string }).delta] : [],
    );
    expect(answer.join("")).toBe("Nothing today.");

    const settings = loadSettings(env);
    if (!settings.ok) throw new Error("test settings invalid");
    const db = await createUserDatabase(settings.settings, ALICE);
    expect((await db.from("runs").select("status").eq("id", input.runId).single()).data).toEqual({ status: "succeeded" });
    // The hub kept what its start stored, and nothing after.
    expect(await runHub(env, ALICE, input.runId).info()).toEqual({ exists: true, finished: false, events: 1 });
  });

  test("a hub slow to store the run's end: the POST's stream ends with the run, not with the hub's answer", async () => {
    // The append carrying the run's end waits until the test lets it go.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let endStored = false;
    const slowEnd = hubsWith((hub) => ({
      append: async (events, note) => {
        if (!events.some((event) => event.type === EventType.RUN_FINISHED)) return hub.append(events, note);
        await held;
        const answer = await hub.append(events, note);
        endStored = true;
        return answer;
      },
    }));
    const input = runInput("today?");
    // A deadline longer than the test's own timeout: a stream that waited for the hub would not end in time.
    // (The live stream closes itself on the run's terminal event, decision D42.)
    const run = await runAgentRequest({ token: aliceToken, input, script, env: { RUN_HUB: slowEnd, DATA_PLANE_TIMEOUT_MS: "60000" } });
    await verify(run.events as never);
    expect(run.events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED });
    expect(endStored).toBe(false);
    // The hub still gets the end once it answers, and a resume then replays the whole run.
    release();
    await expect.poll(() => endStored).toBe(true);
    expect(await runHub(env, ALICE, input.runId).info()).toMatchObject({ exists: true, finished: true, events: run.events.length });
  });
});

describe("a run hub that does not answer", () => {
  test("starting, resuming and cancelling answer 503 UPSTREAM_UNAVAILABLE within the deadline", async () => {
    const silent = {
      idFromName: (name: string) => env.RUN_HUB.idFromName(name),
      get: () => ({ start: () => new Promise(() => {}), follow: () => new Promise(() => {}), cancel: () => new Promise(() => {}) }),
    };
    const hangingEnv = { ...env, RUN_HUB: silent, DATA_PLANE_TIMEOUT_MS: "1000" };
    const input = runInput("today?");
    const began = Date.now();
    const answers = await Promise.all([
      createApp().request(
        "/api/v1/agent/runs",
        {
          method: "POST",
          headers: { authorization: `Bearer ${aliceToken}`, "content-type": "application/json" },
          body: JSON.stringify(input),
        },
        hangingEnv,
      ),
      createApp().request(`/api/v1/agent/runs/${input.runId}/events`, { headers: { authorization: `Bearer ${aliceToken}` } }, hangingEnv),
      createApp().request(
        `/api/v1/agent/runs/${input.runId}/cancel`,
        { method: "POST", headers: { authorization: `Bearer ${aliceToken}` } },
        hangingEnv,
      ),
    ]);
    expect(Date.now() - began).toBeLessThan(5_000);
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(await answer.json()).toMatchObject({ error: { code: "UPSTREAM_UNAVAILABLE", retryable: true } });
    }
  });
});

describe("a credential signing key that does not import", () => {
  test("the start fails with 500 before the run id is claimed: nothing is left running, and the id can be used once the key is fixed", async () => {
    // The shape passes the settings' check; the key itself does not import (x is not a point coordinate).
    const broken = JSON.stringify({ ...JSON.parse(String(env.CREDENTIAL_SIGNING_JWK)), x: "AAAA" });
    const input = runInput("today?");
    const failed = await runAgentRequest({ token: aliceToken, input, script, env: { CREDENTIAL_SIGNING_JWK: broken } });
    expect(failed.response.status).toBe(500);
    expect(JSON.parse(failed.text)).toMatchObject({ error: { code: "INTERNAL" } });
    expect(failed.text).not.toContain(JSON.parse(broken).d);

    const resumed = await createApp().request(
      `/api/v1/agent/runs/${input.runId}/events`,
      { headers: { authorization: `Bearer ${aliceToken}` } },
      env,
    );
    expect(resumed.status).toBe(404);
    const retried = await runAgentRequest({ token: aliceToken, input, script });
    expect(retried.response.status).toBe(200);
    expect(retried.events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED });
  });
});
