// The run endpoints. Everything that can be refused (auth, a malformed body, a reused run id)
// is refused with JSON before any stream starts; once streaming, failures arrive as RUN_ERROR.
//   POST /api/v1/agent/runs                    start a run; the answer is its event stream
//   GET  /api/v1/agent/runs/{runId}/events     resume: ?after=N or Last-Event-ID, then live
//   POST /api/v1/agent/runs/{runId}/cancel     ask the run to stop
// The POST streams from the run itself (run-hub/live-stream.ts); a resume reads the run's hub
// (run-hub/run-hub.ts), which stores the same events under the same `id:`s, so a resumed
// stream continues exactly where the first one stopped (decision D42). Each route declares its
// contract with describeRoute; its validators check the request with the schemas the OpenAPI
// document shows (the run body: run-body.ts).
import { RunAgentInputSchema } from "@ag-ui/core/schemas";
import { Hono } from "hono/tiny";
import { describeRoute } from "hono-openapi";
import { z } from "zod";
import { errorBody } from "../../lib/errors.ts";
import { log } from "../../lib/log.ts";
import { createUserDatabase } from "../../lib/user-database.ts";
import type { AppEnv } from "../app-env.ts";
import { API_ERRORS, BEARER, EVENT_STREAM, errorResponses, jsonContent, validated } from "../openapi.ts";
import { r2ImageStore } from "../persistence/image-store.ts";
import { r2PayloadStore } from "../persistence/payload-store.ts";
import { createRunRecorder } from "../persistence/run-recorder.ts";
import { eventPipe, withinHubDeadline } from "../run-hub/event-pipe.ts";
import { liveStream } from "../run-hub/live-stream.ts";
import { reportingTo } from "../run-hub/record-state.ts";
import { runHub } from "../run-hub/run-hub.ts";
import { type AgentModels, resolveModels } from "../runtime/models.ts";
import { runAgent, runStartedEvent } from "../runtime/run-agent.ts";
import { boundToolRegistry } from "../runtime/tool-registry-binding.ts";
import type { Settings } from "../settings.ts";
import { skillLibrary } from "../skills/skill-library.ts";
import { recordId } from "./record-id.ts";
import { EVENT_CURSOR_PROBLEM, EVENT_ID, EventCursor, resumeCursor } from "./resume-cursor.ts";
import { runRequestBody } from "./run-body.ts";

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

const RunIdParam = z.object({ runId: recordId("the run, as its RunAgentInput named it") });
const ResumeQuery = z.object({ after: EventCursor.optional().describe("where to resume: after this event id (wins over Last-Event-ID)") });
export const CancelRequested = z.object({ cancel_requested: z.literal(true) }).meta({ id: "CancelRequested" });

// The body as documented: AG-UI's own schema, the first check parseRunRequest applies.
const RunAgentInput = RunAgentInputSchema.meta({
  id: "RunAgentInput",
  description:
    "An AG-UI RunAgentInput. Beyond this schema: threadId, runId and the last message's id are 1 to 128 characters; no string (key or value) contains NUL or an unpaired UTF-16 surrogate; the last message is the user's, with text or text and image parts (image URLs absolute https, at most 4 images); the time zone comes from forwardedProps.timezone. A refusal is 400 INVALID_REQUEST naming the field.",
});

// Last-Event-ID is read by resumeCursor (the query wins over it), so it is documented here
// rather than validated on its own; resumeCursor checks it with the query's schema.
const LAST_EVENT_ID = {
  in: "header" as const,
  name: "Last-Event-ID",
  required: false,
  description: "where to resume when `after` is absent (what EventSource sends on reconnect)",
  schema: { type: "string" as const, pattern: EVENT_ID.source },
};

const startRunDoc = describeRoute({
  summary: "Start a run; the answer is its AG-UI event stream",
  description:
    "Everything that can be refused is refused with JSON before the stream starts; once streaming, failures arrive as RUN_ERROR events.",
  security: BEARER,
  requestBody: { required: true, content: jsonContent(RunAgentInput) },
  responses: {
    200: { description: "the run's events, from the first", content: EVENT_STREAM },
    ...errorResponses({
      400: "INVALID_REQUEST: not a JSON RunAgentInput, or a value it may not carry; `field` names it",
      409: "CONFLICT: this runId was already used; start a new run with a new runId",
    }),
    ...API_ERRORS,
  },
});

const resumeDoc = describeRoute({
  summary: "Resume a run's event stream after a given event, then follow it live",
  security: BEARER,
  parameters: [LAST_EVENT_ID],
  responses: {
    200: { description: "the run's events after the cursor, then live until the run ends", content: EVENT_STREAM },
    ...errorResponses({
      400: "INVALID_REQUEST: a runId no run can have, or a cursor that is not an event id; `field` names it",
      404: "NOT_FOUND: no such run (or not the caller's)",
    }),
    ...API_ERRORS,
  },
});

const cancelDoc = describeRoute({
  summary: "Ask a running run to stop",
  description: "Its stream then ends with RUN_FINISHED, outcome {type: cancelled}, and the run is recorded as cancelled.",
  security: BEARER,
  responses: {
    202: { description: "the run was asked to stop", content: jsonContent(CancelRequested) },
    ...errorResponses({
      400: "INVALID_REQUEST: a runId no run can have",
      404: "NOT_FOUND: no such run (or not the caller's)",
      409: "CONFLICT: the run has already ended",
    }),
    ...API_ERRORS,
  },
});

export function runRoutes(options: RunRouteOptions = {}) {
  return new Hono<AppEnv>()
    .post("/api/v1/agent/runs", startRunDoc, runRequestBody, async (c) => {
      const { settings, user } = c.var;
      const request = c.req.valid("json");
      // What can fail before the run exists fails first: a run id is claimed only for a run that starts.
      const db = await createUserDatabase(settings, user.userId);
      const hub = runHub(c.env, user.userId, request.runId);
      const models = (options.models ?? ((s: Settings) => resolveModels(s.agent)))(settings);
      // RUN_STARTED rides with the claim: one hub call fewer.
      const started = runStartedEvent(request, models);
      if (!(await withinHubDeadline(hub.start({ userId: user.userId, runId: request.runId }, [started]), settings.dataPlane.timeoutMs)))
        return c.json(errorBody("CONFLICT", "this runId was already used; start a new run with a new runId"), 409);

      // The POST streams from the run itself, a paced batch at a time; the hub keeps the same
      // numbered events for resumes.
      const live = liveStream();
      live.send(0, [started]);
      const cancel = new AbortController();
      const pipe = eventPipe(hub, () => cancel.abort("cancelled by the user"), {
        appendedAt: Date.now(),
        firstSeq: 1,
        hubTimeoutMs: settings.dataPlane.timeoutMs,
        onBatch: live.send,
        onAppendFailed: (error, events) =>
          log.warn("agent.hub_append_failed", { run_id: request.runId, events, error: error instanceof Error ? error.name : typeof error }),
      });
      const deps = {
        models,
        cli: { db, userId: user.userId, ...(c.env.TOOL_AGENT ? { tools: boundToolRegistry(c.env.TOOL_AGENT, user.userId) } : {}) },
        skills: skillLibrary(settings.agent.enabledSkills),
        agent: settings.agent,
        recorder: reportingTo(
          { refused: () => hub.refused(), recorded: pipe.markRecorded },
          createRunRecorder({
            db,
            userId: user.userId,
            request,
            models: models.labels,
            ...(c.env.PAYLOADS
              ? {
                  payloads: r2PayloadStore(c.env.PAYLOADS, { timeoutMs: settings.dataPlane.timeoutMs }),
                  images: r2ImageStore(c.env.PAYLOADS, { timeoutMs: settings.dataPlane.timeoutMs }),
                }
              : {}),
          }),
        ),
      };

      const run = runAgent(request, { ...deps, settle: pipe.settle, startAnnounced: true }, pipe.emit, cancel.signal)
        .catch((error: unknown) =>
          log.error("agent.run_crashed", { run_id: request.runId, error: error instanceof Error ? error.name : typeof error }),
        )
        .then(() => pipe.drain()) // never fails: a failed append is reported, not thrown
        .finally(() => {
          pipe.stop();
          live.end(); // after a crash, without a terminal event: the client resumes from the hub
        });
      keepAlive(c, run);
      return new Response(live.stream, { headers: SSE_HEADERS });
    })
    .get("/api/v1/agent/runs/:runId/events", resumeDoc, validated("param", RunIdParam), validated("query", ResumeQuery), async (c) => {
      const { runId } = c.req.valid("param");
      const cursor = resumeCursor(c.req.valid("query").after, c.req.header("last-event-id"));
      if (!cursor.ok) return c.json(errorBody("INVALID_REQUEST", `${cursor.field} ${EVENT_CURSOR_PROBLEM}`, { field: cursor.field }), 400);
      const stream = await withinHubDeadline(
        runHub(c.env, c.var.user.userId, runId).follow(cursor.after),
        c.var.settings.dataPlane.timeoutMs,
      );
      if (!stream) return c.json(errorBody("NOT_FOUND", "no such run"), 404);
      return new Response(stream, { headers: SSE_HEADERS });
    })
    .post("/api/v1/agent/runs/:runId/cancel", cancelDoc, validated("param", RunIdParam), async (c) => {
      const hub = runHub(c.env, c.var.user.userId, c.req.valid("param").runId);
      const state = await withinHubDeadline(hub.cancel(), c.var.settings.dataPlane.timeoutMs);
      if (!state.exists) return c.json(errorBody("NOT_FOUND", "no such run"), 404);
      if (state.finished) return c.json(errorBody("CONFLICT", "the run has already ended"), 409);
      const accepted: z.output<typeof CancelRequested> = { cancel_requested: true };
      return c.json(accepted, 202);
    });
}
