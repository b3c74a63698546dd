// POST /api/v1/agent/runs: an AG-UI RunAgentInput in, a Server-Sent Events stream of AG-UI
// events out. Everything that can be refused (auth, a malformed body) is refused with JSON
// before the stream starts; once streaming, failures arrive as RUN_ERROR.
import type { BaseEvent } from "@ag-ui/core";
import { EventEncoder } from "@ag-ui/encoder";
import { Hono } from "hono";
import type { AppEnv } from "../../lib/app-env.ts";
import type { Settings } from "../../lib/config.ts";
import { errorBody } from "../../lib/errors.ts";
import { log } from "../../lib/log.ts";
import { createUserDatabase } from "../../lib/user-database.ts";
import { r2PayloadStore } from "../persistence/payload-store.ts";
import { createRunRecorder } from "../persistence/run-recorder.ts";
import { type AgentModels, resolveModels } from "../runtime/models.ts";
import { runAgent } from "../runtime/run-agent.ts";
import { parseRunRequest } from "../runtime/run-request.ts";
import { skillLibrary } from "../skills/skill-library.ts";

export interface RunRouteOptions {
  /** Which models a run uses; tests script them, production reads the settings. */
  models?: (settings: Settings) => AgentModels;
}

export function runRoutes(options: RunRouteOptions = {}) {
  return new Hono<AppEnv>().post("/api/v1/agent/runs", async (c) => {
    const body = await c.req.json().catch(() => undefined);
    const parsed = parseRunRequest(body);
    if (!parsed.ok) return c.json(errorBody("INVALID_REQUEST", parsed.problem), 400);
    const { settings, user } = c.var;
    const request = parsed.request;

    const models = (options.models ?? ((s: Settings) => resolveModels(s.agent)))(settings);
    const db = await createUserDatabase(settings, user.userId);
    const deps = {
      models,
      cli: { db, userId: user.userId },
      skills: skillLibrary(settings.agent.enabledSkills),
      agent: settings.agent,
      recorder: createRunRecorder({
        db,
        userId: user.userId,
        request,
        models: models.labels,
        ...(c.env.PAYLOADS ? { payloads: r2PayloadStore(c.env.PAYLOADS) } : {}),
      }),
    };
    // SSE unless the client explicitly asked for AG-UI's protobuf framing.
    const encoder = new EventEncoder({ accept: c.req.header("accept") ?? "text/event-stream" });
    const binary = encoder.getContentType() !== "text/event-stream" && (c.req.header("accept") ?? "").includes("proto");
    const bytes = new TextEncoder();
    const disconnected = new AbortController();
    let open = true;

    const body$ = new ReadableStream<Uint8Array>({
      start(controller) {
        const emit = (event: BaseEvent) => {
          if (!open) return;
          try {
            controller.enqueue(binary ? encoder.encodeBinary(event) : bytes.encode(encoder.encodeSSE(event)));
          } catch {
            open = false; // the client went away between checks
          }
        };
        const run = runAgent(request, deps, emit, disconnected.signal)
          .catch((error: unknown) => log.error("agent.run_crashed", { run_id: request.runId, error: error instanceof Error ? error.name : typeof error }))
          .finally(() => {
            if (open) controller.close();
            open = false;
          });
        try {
          c.executionCtx.waitUntil(run);
        } catch {
          // no ExecutionContext (app.request in tests): the stream itself keeps the run alive
        }
      },
      cancel() {
        open = false;
        disconnected.abort("client disconnected");
      },
    });

    return new Response(body$, {
      headers: {
        "content-type": binary ? encoder.getContentType() : "text/event-stream; charset=utf-8",
        "cache-control": "no-cache, no-transform",
        "x-accel-buffering": "no",
      },
    });
  });
}
