// The stages of one agent run, one at a time, inside workerd: the benchmark
// (test/bench/breakdown.ts) asks for a stage N times and reads the CPU the Worker's process
// used meanwhile from /proc, so each stage's cost is measured where it runs, with the product's
// own functions and the inputs of a demo run, and with nothing else going on. Never deployed.
//   POST /stage/<name>?n=N   runs the stage N times in sequence; answers { n, wallMs, note }
//   GET  /stages             the stage names, in run order
import type { LanguageModelV4, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import type { SupabaseClient } from "@supabase/supabase-js";
import { experimental_streamTextLowMemory as streamTextOnce } from "ai";
import { r2PayloadStore } from "../../../functions/agent/persistence/payload-store.ts";
import { createRunRecorder } from "../../../functions/agent/persistence/run-recorder.ts";
import { postProcessToolCall } from "../../../functions/agent/post-processing/index.ts";
import { eventPipe, type HubLike } from "../../../functions/agent/run-hub/event-pipe.ts";
import { liveStream } from "../../../functions/agent/run-hub/live-stream.ts";
import { runHub } from "../../../functions/agent/run-hub/run-hub.ts";
import { sseFrame } from "../../../functions/agent/run-hub/sse-frame.ts";
import { type AgentEvent, runUsage } from "../../../functions/agent/runtime/ag-ui-events.ts";
import { runIntentStage } from "../../../functions/agent/runtime/intent.ts";
import { resolveModels } from "../../../functions/agent/runtime/models.ts";
import { runAgent, runStartedEvent } from "../../../functions/agent/runtime/run-agent.ts";
import { parseRunRequest, type RunRequest } from "../../../functions/agent/runtime/run-request.ts";
import { toolLoop } from "../../../functions/agent/runtime/tool-loop.ts";
import { loadSettings, type Settings } from "../../../functions/agent/settings.ts";
import { type SkillFileResult, skillLibrary } from "../../../functions/agent/skills/skill-library.ts";
import { importCredentialSigner, mintCredential } from "../../../functions/lib/auth/credential.ts";
import { bearerToken, verifyAccessToken } from "../../../functions/lib/auth/verify-access-token.ts";
import { log } from "../../../functions/lib/log.ts";
import { createUserClient } from "../../../functions/lib/supabase.ts";
import { createUserDatabase } from "../../../functions/lib/user-database.ts";
import type { CliResult } from "../../../functions/project_cli/result.ts";
import { runProjectCli } from "../../../functions/project_cli/router.ts";

export { RunHub } from "../../../functions/agent/run-hub/run-hub.ts";

const QUESTION = "What is on my calendar today?";

interface Fixture {
  settings: Settings;
  userId: string;
  token: string;
  body: string;
  request: RunRequest;
  calendarCall: unknown;
  skillResult: SkillFileResult;
  calendarResult: CliResult;
  /** The run's first event, stored by the hub's start. */
  started: AgentEvent;
  /** The run's other events in the batches the event pipe sent them (captured from one real run). */
  batches: AgentEvent[][];
  payloads: unknown[];
}

let fixture: Promise<Fixture> | undefined;

const runBody = (runId: string) =>
  JSON.stringify({
    threadId: "stage-bench",
    runId,
    messages: [{ id: "m", role: "user", content: QUESTION }],
    state: {},
    tools: [],
    context: [],
    forwardedProps: { timezone: "UTC" },
  });

function parsed(body: string): RunRequest {
  const result = parseRunRequest(JSON.parse(body));
  if (!result.ok) throw new Error(`the stage bench's run body is invalid: ${result.problem}`);
  return result.request;
}

/** One demo run through the product's pieces, keeping what the stages replay. */
async function buildFixture(env: Env, token: string): Promise<Fixture> {
  const loaded = loadSettings(env);
  if (!loaded.ok) throw new Error("the stage bench's settings are invalid");
  const settings = loaded.settings;
  const verified = await verifyAccessToken(token, settings.auth, { kid: settings.credential.signingJwk?.kid ?? "" });
  if (!verified.ok) throw new Error(`the stage bench's token was refused: ${verified.reason}`);
  const userId = verified.user.userId;
  const body = runBody(crypto.randomUUID());
  const request = parsed(body);
  const db = await createUserDatabase(settings, userId);
  const today = new Date().toISOString().slice(0, 10);
  const calendarCall = { module: "calendar", method: "read", input: { mode: "day", date: today, timezone: "UTC" } };
  const skillResult = skillLibrary(settings.agent.enabledSkills).read("calendar/SKILL.md");
  const calendarResult = await runProjectCli(calendarCall, { db, userId });
  // The batches a real run's pipe makes, against a real hub, started as the run route does.
  const hub = runHub(env, userId, request.runId);
  const models = resolveModels(settings.agent);
  const started = runStartedEvent(request, models);
  await hub.start({ userId, runId: request.runId }, [started]);
  const batches: AgentEvent[][] = [];
  const recording: HubLike = {
    append: (events, note) => {
      batches.push([...events]);
      return hub.append(events, note);
    },
    isCancelRequested: () => hub.isCancelRequested(),
  };
  const pipe = eventPipe(recording, () => undefined, { appendedAt: Date.now(), firstSeq: 1 });
  const payloads: unknown[] = [];
  await runAgent(
    request,
    {
      models,
      cli: { db, userId },
      skills: skillLibrary(settings.agent.enabledSkills),
      agent: settings.agent,
      settle: pipe.settle,
      startAnnounced: true,
    },
    pipe.emit,
    new AbortController().signal,
  );
  await pipe.drain();
  for (const batch of batches)
    for (const event of batch)
      if (event.type === "TOOL_CALL_RESULT" && "content" in event)
        payloads.push({ tool_call_id: "call", content: event.content, args: {} });
  return { settings, userId, token, body, request, calendarCall, skillResult, calendarResult, started, batches, payloads };
}

type Stage = (f: Fixture, env: Env) => Promise<unknown> | unknown;

/** A model that streams one text answer in `chunks` deltas: the AI SDK's cost per step and per chunk. */
function chunkedModel(chunks: number): LanguageModelV4 {
  const usage = { inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 0, text: 0, reasoning: 0 } };
  return {
    specificationVersion: "v4",
    provider: "stage-bench",
    modelId: "chunked",
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error("stream only")),
    doStream: async () => {
      const parts: LanguageModelV4StreamPart[] = [
        { type: "stream-start", warnings: [] },
        { type: "text-start", id: "t" },
      ];
      for (let i = 0; i < chunks; i++) parts.push({ type: "text-delta", id: "t", delta: "word " });
      parts.push({ type: "text-end", id: "t" }, { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage });
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
}

/** One text step as the run takes it: the run's tool loop, each model call the AI SDK's call primitive (D46). */
async function loopStep(chunks: number): Promise<number> {
  let n = 0;
  const parts = toolLoop({
    model: chunkedModel(chunks),
    instructions: "",
    messages: [{ role: "user", content: QUESTION }],
    maxSteps: 1,
    abortSignal: new AbortController().signal,
  });
  for await (const part of parts) if (part.type === "text-delta") n++;
  return n;
}

/** The same step through streamText (single consumer, no SDK telemetry), the AI SDK's own loop, for comparison. */
async function streamTextStep(chunks: number): Promise<number> {
  const result = streamTextOnce({ model: chunkedModel(chunks), prompt: QUESTION, telemetry: { isEnabled: false } });
  let n = 0;
  for await (const part of result.fullStream) if (part.type === "text-delta") n++;
  await result.totalUsage;
  return n;
}

/** The same step without the AI SDK: the model's own stream read to the end (what the SDK adds is the difference). */
async function rawStep(chunks: number): Promise<number> {
  const { stream } = await chunkedModel(chunks).doStream({ prompt: [{ role: "user", content: [{ type: "text", text: QUESTION }] }] });
  let n = 0;
  for await (const part of stream) if (part.type === "text-delta") n++;
  return n;
}

const freshRequest = () => parsed(runBody(crypto.randomUUID()));

const recorderFor = (f: Fixture, db: SupabaseClient, request: RunRequest, env: Env) =>
  createRunRecorder({
    db,
    userId: f.userId,
    request,
    models: { intent: "offline-demo", execution: "offline-demo" },
    payloads: r2PayloadStore(env.PAYLOADS, { timeoutMs: f.settings.dataPlane.timeoutMs }),
  });

/**
 * The run's batches as its pipe sends them, numbered on from `from`: the recorded note rides
 * with the last (the end), after the run's read of the cancel flag at its finish line.
 */
async function appendAll(hub: ReturnType<typeof runHub>, batches: AgentEvent[][], from: number) {
  for (const [i, batch] of batches.entries()) {
    if (i === batches.length - 1) await hub.isCancelRequested();
    await hub.append(batch, { recorded: i === batches.length - 1, from });
    from += batch.length;
  }
}

/** A new run's hub, started with `first` (as the run route starts it with RUN_STARTED), then `batches` appended. */
async function hubRun(f: Fixture, env: Env, first: AgentEvent[], batches: AgentEvent[][]) {
  const runId = crypto.randomUUID();
  const hub = runHub(env, f.userId, runId);
  await hub.start({ userId: f.userId, runId }, first);
  return appendAll(hub, batches, first.length);
}

/** In run order. Each entry: what one iteration does. */
const STAGES: Record<string, Stage> = {
  "auth: verify a token seen before (the isolate's verified tokens)": (f) =>
    verifyAccessToken(bearerToken(`Bearer ${f.token}`), f.settings.auth, { kid: f.settings.credential.signingJwk?.kid ?? "" }),
  // Settings the isolate has not verified this token under: the whole check, as on a token's first request.
  "auth: verify a new token (jose, cached JWKS)": (f) =>
    verifyAccessToken(bearerToken(`Bearer ${f.token}`), { ...f.settings.auth }, { kid: f.settings.credential.signingJwk?.kid ?? "" }),
  "request: JSON + RunAgentInput schema + checks": (f) => parsed(f.body),
  "claim: a new run hub (Durable Object) + claim": (f, env) => {
    const runId = crypto.randomUUID();
    return runHub(env, f.userId, runId).claim({ userId: f.userId, runId });
  },
  "credential: mint (ES256 sign)": async (f) =>
    mintCredential(f.userId, await importCredentialSigner(f.settings.credential), {
      ttlSeconds: f.settings.credential.ttlSeconds,
      audience: f.settings.auth.audience,
    }),
  "database client: createClient (supabase-js)": (f) => createUserClient(f.settings, async () => "unused"),
  "record start: record_run_start (PostgREST)": async (f, env) => {
    const db = await createUserDatabase(f.settings, f.userId);
    return recorderFor(f, db, freshRequest(), env).start();
  },
  "intent: one structured-output call on the model (demo model)": (f) =>
    runIntentStage({ model: resolveModels(f.settings.agent).intent, conversation: f.request.conversation }),
  "tool call: view_skill_file": (f) => skillLibrary(f.settings.agent.enabledSkills).read("calendar/SKILL.md"),
  "tool call: project_cli calendar.read (PostgREST)": async (f) => {
    const db = await createUserDatabase(f.settings, f.userId);
    return runProjectCli(f.calendarCall, { db, userId: f.userId });
  },
  "post-processing: both tool results (cards, summaries)": (f) => {
    postProcessToolCall({
      toolName: "view_skill_file",
      toolCallId: "c1",
      args: { path: "calendar/SKILL.md" },
      output: f.skillResult,
    });
    return postProcessToolCall({ toolName: "project_cli", toolCallId: "c2", args: f.calendarCall, output: f.calendarResult });
  },
  "tool payloads: 2 R2 puts": (f, env) => {
    const store = r2PayloadStore(env.PAYLOADS);
    return Promise.all(f.payloads.map((payload, i) => store.put(`stage-bench/${crypto.randomUUID()}/${i}.json`, payload)));
  },
  "record start + finish (PostgREST x2)": async (f, env) => {
    const db = await createUserDatabase(f.settings, f.userId);
    const recorder = recorderFor(f, db, freshRequest(), env);
    await recorder.start();
    return recorder.finish({ status: "succeeded", stepCount: 3, usage: runUsage({}), stageTimings: {} });
  },
  "SSE: frame the run's events (sseFrame)": (f) => {
    let seq = 0;
    let n = 0;
    for (const batch of f.batches) for (const event of batch) n += sseFrame(seq++, event).length;
    return n;
  },
  "hub: start (claim + RUN_STARTED) + the run's appends and its cancel check": (f, env) => hubRun(f, env, [f.started], f.batches),
  "hub: the same + the POST's live stream (the batches framed and read)": async (f, env) => {
    const live = liveStream();
    const read = new Response(live.stream).arrayBuffer();
    live.send(0, [f.started]);
    let from = 1;
    for (const batch of f.batches) {
      live.send(from, batch);
      from += batch.length;
    }
    await hubRun(f, env, [f.started], f.batches);
    return read;
  },
  "hub: claim + the same events in 2 appends (the first, then the rest)": (f, env) => {
    const all = [f.started, ...f.batches.flat()];
    return hubRun(f, env, [], [all.slice(0, 1), all.slice(1)]);
  },
  "hub: claim + the same events in 12 appends (per-append cost)": (f, env) => {
    const all = [f.started, ...f.batches.flat()];
    const cut = (i: number) => Math.floor((i * all.length) / 12);
    return hubRun(
      f,
      env,
      [],
      Array.from({ length: 12 }, (_, i) => all.slice(cut(i), cut(i + 1))),
    );
  },
  "the run's tool loop, one text step of 1 chunk (no tools)": () => loopStep(1),
  "the run's tool loop, one text step of 41 chunks (no tools)": () => loopStep(41),
  "AI SDK: streamText (single consumer), one text step of 1 chunk (no tools)": () => streamTextStep(1),
  "AI SDK: streamText (single consumer), one text step of 41 chunks (no tools)": () => streamTextStep(41),
  "the model's stream alone, one text step of 1 chunk (no AI SDK)": () => rawStep(1),
  "the model's stream alone, one text step of 41 chunks (no AI SDK)": () => rawStep(41),
  "logging: the run's two log lines": () => {
    log.warn("agent.demo_model", { run_id: "r", thread_id: "t", note: "no AGENT_MODEL_API_KEY: the offline demo model is answering" });
    log.info("agent.run_finished", {
      run_id: "r",
      thread_id: "t",
      step_count: 3,
      db_round_trips: 2,
      intent_ms: 1,
      execution_ms: 20,
      total_ms: 40,
    });
  },
  "run core: runAgent without recorder or hub (intent, 3 steps, 2 tools, events)": async (f) => {
    const db = await createUserDatabase(f.settings, f.userId);
    const events: AgentEvent[] = [];
    await runAgent(
      freshRequest(),
      {
        models: resolveModels(f.settings.agent),
        cli: { db, userId: f.userId },
        skills: skillLibrary(f.settings.agent.enabledSkills),
        agent: f.settings.agent,
      },
      (event) => events.push(event),
      new AbortController().signal,
    );
    return events.length;
  },
};

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === "/stages") return Response.json(Object.keys(STAGES));
    const name = decodeURIComponent(url.pathname.replace(/^\/stage\//, ""));
    const stage = STAGES[name];
    if (!stage) return new Response(`no stage ${name}\n`, { status: 404 });
    fixture ??= buildFixture(env, bearerToken(request.headers.get("authorization")) ?? "");
    const f = await fixture;
    const n = Number(url.searchParams.get("n") ?? "1");
    const began = Date.now();
    for (let i = 0; i < n; i++) await stage(f, env);
    return Response.json({ n, wallMs: Date.now() - began, appendsPerRun: f.batches.length, eventsPerRun: f.batches.flat().length });
  },
};
