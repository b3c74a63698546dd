// The run endpoints. Everything that can be refused (auth, a malformed body, a reused run id)
// is refused with JSON before any stream starts; once streaming, failures arrive as RUN_ERROR.
//   POST /api/v1/agent/runs                    start a run; the answer is its event stream
//   GET  /api/v1/agent/runs/{runId}/events     resume: ?after=N or Last-Event-ID, then live
//   POST /api/v1/agent/runs/{runId}/cancel     ask the run to stop
// Every stream is a subscription to the run's hub (run-hub/run-hub.ts), so the first stream
// and any resumed one are the same events with the same `id:`s.
import { Hono } from "hono";
import { errorBody } from "../../lib/errors.ts";
import { log } from "../../lib/log.ts";
import { createUserDatabase } from "../../lib/user-database.ts";
import type { AppEnv } from "../app-env.ts";
import { r2PayloadStore } from "../persistence/payload-store.ts";
import { createRunRecorder } from "../persistence/run-recorder.ts";
import { eventPipe } from "../run-hub/event-pipe.ts";
import { reportingTo } from "../run-hub/record-state.ts";
import { runHub } from "../run-hub/run-hub.ts";
import { type AgentModels, resolveModels } from "../runtime/models.ts";
import { runAgent } from "../runtime/run-agent.ts";
import { idProblem, parseRunRequest } from "../runtime/run-request.ts";
import type { Settings } from "../settings.ts";
import { skillLibrary } from "../skills/skill-library.ts";
import { resumeCursor } from "./resume-cursor.ts";

export interface RunRouteOptions {
  /** Which models a run uses; tests script them, production reads the settings. */
  models?: (settings: Settings) => AgentModels;
}

const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
};

function keepAlive(c: { executionCtx: { waitUntil(promise: Promise<unknown>): void } }, work: Promise<unknown>): void {
  try {
    c.executionCtx.waitUntil(work); // the run outlives a client that disconnects
  } catch {
    // no ExecutionContext (app.request in tests): the promise runs on by itself
  }
}

/** A run id in a path obeys the rule of one in a body; anything else is refused, not looked up. */
function runIdRefusal(runId: string) {
  const problem = idProblem(runId);
  return problem ? errorBody("INVALID_REQUEST", `runId ${problem}`, { field: "runId" }) : undefined;
}

export function runRoutes(options: RunRouteOptions = {}) {
  return new Hono<AppEnv>()
    .post("/api/v1/agent/runs", async (c) => {
      const body = await c.req.json().catch(() => undefined);
      if (body === undefined)
        return c.json(errorBody("INVALID_REQUEST", "the body must be a JSON RunAgentInput", { field: "(body)" }), 400);
      const parsed = parseRunRequest(body);
      if (!parsed.ok) return c.json(errorBody("INVALID_REQUEST", parsed.problem, { field: parsed.field }), 400);
      const { settings, user } = c.var;
      const request = parsed.request;
      const hub = runHub(c.env, user.userId, request.runId);
      if (!(await hub.claim({ userId: user.userId, runId: request.runId })))
        return c.json(errorBody("CONFLICT", "this runId was already used; start a new run with a new runId"), 409);

      const models = (options.models ?? ((s: Settings) => resolveModels(s.agent)))(settings);
      const db = await createUserDatabase(settings, user.userId);
      const deps = {
        models,
        cli: { db, userId: user.userId },
        skills: skillLibrary(settings.agent.enabledSkills),
        agent: settings.agent,
        recorder: reportingTo(
          hub,
          createRunRecorder({
            db,
            userId: user.userId,
            request,
            models: models.labels,
            ...(c.env.PAYLOADS ? { payloads: r2PayloadStore(c.env.PAYLOADS, { timeoutMs: settings.dataPlane.timeoutMs }) } : {}),
          }),
        ),
      };

      const stream = await hub.subscribe(-1);
      const cancel = new AbortController();
      const pipe = eventPipe(hub, () => cancel.abort("cancelled by the user"));
      const run = runAgent(request, { ...deps, settle: pipe.drain }, pipe.emit, cancel.signal)
        .then(() => pipe.drain())
        .catch((error: unknown) =>
          log.error("agent.run_crashed", { run_id: request.runId, error: error instanceof Error ? error.name : typeof error }),
        );
      keepAlive(c, run);
      return new Response(stream, { headers: SSE_HEADERS });
    })
    .get("/api/v1/agent/runs/:runId/events", async (c) => {
      const badId = runIdRefusal(c.req.param("runId"));
      if (badId) return c.json(badId, 400);
      const cursor = resumeCursor(c.req.query("after"), c.req.header("last-event-id"));
      if (!cursor.ok)
        return c.json(
          errorBody("INVALID_REQUEST", "after (or Last-Event-ID) must be an event id: an integer >= -1", { field: cursor.field }),
          400,
        );
      const hub = runHub(c.env, c.var.user.userId, c.req.param("runId"));
      if (!(await hub.info()).exists) return c.json(errorBody("NOT_FOUND", "no such run"), 404);
      return new Response(await hub.subscribe(cursor.after), { headers: SSE_HEADERS });
    })
    .post("/api/v1/agent/runs/:runId/cancel", async (c) => {
      const badId = runIdRefusal(c.req.param("runId"));
      if (badId) return c.json(badId, 400);
      const hub = runHub(c.env, c.var.user.userId, c.req.param("runId"));
      const state = await hub.cancel();
      if (!state.exists) return c.json(errorBody("NOT_FOUND", "no such run"), 404);
      if (state.finished) return c.json(errorBody("CONFLICT", "the run has already ended"), 409);
      return c.json({ cancel_requested: true }, 202);
    });
}
