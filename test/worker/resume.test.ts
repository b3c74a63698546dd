// Resume and cancel: the POST streams from the run, and the run hub keeps the same events under
// the same numbers, so a client that reconnects with the last id it saw gets exactly the rest,
// and a cancel ends the run with a terminal event.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, test } from "vitest";
import { createApp } from "../../functions/agent/app.ts";
import { runHub } from "../../functions/agent/run-hub/run-hub.ts";
import { loadSettings } from "../../functions/agent/settings.ts";
import { createUserDatabase } from "../../functions/lib/user-database.ts";
import { SEEDED_USERS } from "../../supabase/local/auth-tokens.ts";
import { EventType, runInput, type Script, scriptedModels, tokenFor, verify } from "./support/agent.ts";

interface Frame {
  id: number;
  event: Record<string, unknown> & { type: string };
}

const parseFrames = (text: string): Frame[] =>
  text
    .split("\n\n")
    .filter((frame) => frame.trim() !== "")
    .map((frame) => {
      const lines = frame.split("\n");
      return {
        id: Number(lines.find((l) => l.startsWith("id: "))!.slice(4)),
        event: JSON.parse(lines.find((l) => l.startsWith("data: "))!.slice(6)),
      };
    });

let alice: string;
let bob: string;
beforeAll(async () => {
  [alice, bob] = await Promise.all([tokenFor(SEEDED_USERS.alice.id), tokenFor(SEEDED_USERS.bob.id)]);
});

const today = new Date().toISOString().slice(0, 10);
const typicalScript = (): Script => ({
  intent: { objective: "today", requires_tool: true },
  steps: [
    { tool: "view_skill_file", input: { path: "calendar/SKILL.md" } },
    { tool: "project_cli", input: { module: "calendar", method: "read", input: { mode: "day", date: today, timezone: "UTC" } } },
    { text: "You have a project sync at ten and lunch at noon, and nothing after three." },
  ],
});

function start(script: Script, token = alice, input = runInput("What's on today?")) {
  const scripted = scriptedModels(script);
  const app = createApp({ models: () => scripted.models });
  const response = app.request(
    "/api/v1/agent/runs",
    { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify(input) },
    env,
  );
  return { scripted, app, input, response };
}

const get = (path: string, token = alice, headers: Record<string, string> = {}) =>
  createApp().request(path, { headers: { authorization: `Bearer ${token}`, ...headers } }, env);
const post = (path: string, token = alice) =>
  createApp().request(path, { method: "POST", headers: { authorization: `Bearer ${token}` } }, env);

describe("resume", () => {
  test("from every point, the replay is exactly the rest of the uninterrupted stream", async () => {
    const { response, input } = start(typicalScript());
    const reference = parseFrames(await (await response).text());
    expect(reference.map((frame) => frame.id)).toEqual(reference.map((_, i) => i)); // 0..n, no gaps
    await verify(reference.map((frame) => frame.event) as never);
    for (let after = -1; after < reference.length; after++) {
      const replay = parseFrames(await (await get(`/api/v1/agent/runs/${input.runId}/events?after=${after}`)).text());
      expect(replay).toEqual(reference.slice(after + 1));
      await verify([...reference.slice(0, after + 1), ...replay].map((frame) => frame.event) as never);
    }
    const viaHeader = parseFrames(await (await get(`/api/v1/agent/runs/${input.runId}/events`, alice, { "last-event-id": "5" })).text());
    expect(viaHeader).toEqual(reference.slice(6));
  });

  test("a client that disconnects mid-stream resumes where it stopped; the run went on without it", async () => {
    for (let attempt = 0; attempt < 8; attempt++) {
      const { response, input } = start(typicalScript());
      const reader = (await response).body!.getReader();
      let text = "";
      const stopAfter = 1 + Math.floor(Math.random() * 3); // a random number of chunks
      for (let i = 0; i < stopAfter; i++) {
        const chunk = await reader.read();
        if (chunk.done) break;
        text += new TextDecoder().decode(chunk.value);
      }
      await reader.cancel("network lost");
      const complete = text.lastIndexOf("\n\n") + 2;
      const seen = parseFrames(text.slice(0, complete));
      const lastId = seen.at(-1)?.id ?? -1;
      const rest = parseFrames(await (await get(`/api/v1/agent/runs/${input.runId}/events?after=${lastId}`)).text());
      const all = [...seen, ...rest];
      expect(all.map((frame) => frame.id)).toEqual(all.map((_, i) => i));
      expect(all.at(-1)!.event.type).toBe(EventType.RUN_FINISHED);
      await verify(all.map((frame) => frame.event) as never);
    }
  });

  test("another user reaches neither the events nor the cancel of a run, even with its id", async () => {
    const { response, input } = start(typicalScript());
    await (await response).text();
    expect((await get(`/api/v1/agent/runs/${input.runId}/events?after=-1`, bob)).status).toBe(404);
    expect((await post(`/api/v1/agent/runs/${input.runId}/cancel`, bob)).status).toBe(404);
    expect((await get(`/api/v1/agent/runs/${input.runId}/events?after=-1`)).status).toBe(200);
  });

  test("a reused run id is refused before any stream; bad cursors are 400", async () => {
    const first = start(typicalScript());
    await (await first.response).text();
    const again = start(typicalScript(), alice, first.input);
    expect((await again.response).status).toBe(409);
    expect((await get(`/api/v1/agent/runs/${first.input.runId}/events?after=x`)).status).toBe(400);
    expect((await post(`/api/v1/agent/runs/${first.input.runId}/cancel`)).status).toBe(409); // already over
  });
});

describe("run ids and lost runs", () => {
  test("two starts racing for one run id: exactly one streams, the other is refused", async () => {
    const input = runInput("What's on today?");
    const [a, b] = await Promise.all([start(typicalScript(), alice, input).response, start(typicalScript(), alice, input).response]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const winner = a.status === 200 ? a : b;
    const frames = parseFrames(await winner.text());
    expect(frames.filter((frame) => frame.event.type === EventType.RUN_STARTED)).toHaveLength(1);
  });
  // Lost runs (the hub's idle limit) are covered in run-faults.test.ts.
});

describe("following live", () => {
  test("a resume that starts while the run is still going replays, then follows it to the end", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let reached!: () => void;
    const arrived = new Promise<void>((resolve) => (reached = resolve));
    const run = start(typicalScript());
    const original = run.scripted.execution.doStream;
    let calls = 0;
    run.scripted.execution.doStream = async (options) => {
      // hold the run between its two tool steps
      if (calls++ === 1) {
        reached();
        await gate;
      }
      return (original as (o: typeof options) => ReturnType<typeof original>)(options);
    };
    const firstStream = (await run.response).text();
    await arrived;
    const follower = (await get(`/api/v1/agent/runs/${run.input.runId}/events?after=2`)).text();
    await new Promise((r) => setTimeout(r, 20)); // the follower is attached and waiting
    release();
    const [all, followed] = await Promise.all([firstStream, follower]);
    const reference = parseFrames(all);
    expect(reference.at(-1)!.event.type).toBe(EventType.RUN_FINISHED);
    expect(parseFrames(followed)).toEqual(reference.slice(3));
  });
});

describe("cancel", () => {
  /** A run whose model waits at one stage until the test lets it go. */
  function gatedRun(stage: "intent" | "execution" | "report") {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let reached!: () => void;
    const arrived = new Promise<void>((resolve) => (reached = resolve));
    const script = typicalScript();
    const run = start(script);
    const { intent, execution } = run.scripted;
    if (stage === "intent") {
      const original = intent.doStream;
      intent.doStream = async (options) => {
        reached();
        await gate;
        return (original as (o: typeof options) => ReturnType<typeof original>)(options);
      };
    } else {
      const original = execution.doStream;
      let calls = 0;
      const gatedCall = stage === "execution" ? 0 : 2; // the report is the third call (after two tool steps)
      execution.doStream = async (options) => {
        if (calls++ === gatedCall) {
          reached();
          await gate;
        }
        return (original as (o: typeof options) => ReturnType<typeof original>)(options);
      };
    }
    return { ...run, arrived, release };
  }

  test.each(["intent", "execution", "report"] as const)("cancelling during %s ends the run with RUN_FINISHED cancelled", async (stage) => {
    const { response, input, arrived, release } = gatedRun(stage);
    const streamed = (await response).text();
    await arrived;
    const answer = await post(`/api/v1/agent/runs/${input.runId}/cancel`);
    expect(answer.status).toBe(202);
    expect(await answer.json()).toEqual({ cancel_requested: true });
    // The cancel flag reaches the run with its next event; give it one.
    release();
    const frames = parseFrames(await streamed);
    const events = frames.map((frame) => frame.event);
    await verify(events as never);
    expect(events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: "cancelled" } });
    expect(events.some((event) => event.type === EventType.RUN_ERROR)).toBe(false);
    // Resuming a cancelled run replays it and ends; the record says cancelled.
    expect(parseFrames(await (await get(`/api/v1/agent/runs/${input.runId}/events?after=-1`)).text())).toEqual(frames);
    const settings = loadSettings(env);
    if (!settings.ok) throw new Error("settings");
    const db = await createUserDatabase(settings.settings, SEEDED_USERS.alice.id);
    const { data } = await db.from("runs").select("status, error_code").eq("id", input.runId).single();
    expect(data).toEqual({ status: "cancelled", error_code: "CANCELLED" });
  });
});

describe("the hub keeps the run's numbers", () => {
  const tick = (n: number) => ({ type: EventType.CUSTOM, name: "tick", value: n }) as never;

  test("a batch whose append was lost stays a gap, and a number already stored is never written again", async () => {
    const runId = crypto.randomUUID();
    const hub = runHub(env, SEEDED_USERS.alice.id, runId);
    expect(
      await hub.start({ userId: SEEDED_USERS.alice.id, runId }, [{ type: EventType.RUN_STARTED, threadId: "t", runId } as never]),
    ).toBe(true);
    expect(await hub.start({ userId: SEEDED_USERS.alice.id, runId }, [tick(0)])).toBe(false); // taken: nothing stored
    await hub.append([tick(1), tick(2)], { from: 1 });
    // events 3 and 4 never arrived
    await hub.append([tick(5)], { from: 5 });
    await hub.append([tick(-5), tick(6)], { from: 5 }); // 5 again: kept as first written
    await hub.append([tick(7)]); // no number given: on from the last
    await hub.append([{ type: EventType.RUN_FINISHED, threadId: "t", runId } as never], { from: 8 });
    const frames = parseFrames(await (await get(`/api/v1/agent/runs/${runId}/events?after=-1`)).text());
    expect(frames.map((frame) => [frame.id, frame.event.value ?? frame.event.type])).toEqual([
      [0, EventType.RUN_STARTED],
      [1, 1],
      [2, 2],
      [5, 5],
      [6, 6],
      [7, 7],
      [8, EventType.RUN_FINISHED],
    ]);
  });

  test("an append tells the run whether a client follows it live, so that it sends sooner (D44)", async () => {
    const runId = crypto.randomUUID();
    const hub = runHub(env, SEEDED_USERS.alice.id, runId);
    await hub.start({ userId: SEEDED_USERS.alice.id, runId }, [{ type: EventType.RUN_STARTED, threadId: "t", runId } as never]);
    expect(await hub.append([tick(1)], { from: 1 })).toEqual({ cancelRequested: false, followed: false });
    const follower = await get(`/api/v1/agent/runs/${runId}/events?after=-1`);
    const reader = follower.body!.getReader();
    await reader.read(); // the replay: the follower is subscribed
    expect(await hub.append([tick(2)], { from: 2 })).toEqual({ cancelRequested: false, followed: true });
    await reader.cancel("gone");
    await expect.poll(async () => (await hub.append([], {})).followed).toBe(false);
  });
});
