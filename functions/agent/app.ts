// The agent Worker's Hono application: request context, public routes, authenticated API.
import { Hono } from "hono/tiny";
import { requireUser } from "../lib/auth/middleware.ts";
import { DeadlineExceeded } from "../lib/bounded-fetch.ts";
import { errorBody } from "../lib/errors.ts";
import { log } from "../lib/log.ts";
import { assignRequestId, stampRequestId } from "../lib/request-id.ts";
import type { AppEnv } from "./app-env.ts";
import { mountOpenApi } from "./openapi.ts";
import { health } from "./routes/health.ts";
import { historyRoutes } from "./routes/history.ts";
import { imageRoutes } from "./routes/images.ts";
import { me } from "./routes/me.ts";
import { playgroundRoutes } from "./routes/playground.ts";
import { type RunRouteOptions, runRoutes } from "./routes/runs.ts";
import { withSettings } from "./settings-middleware.ts";

export type AppOptions = RunRouteOptions;

/** The agent Worker's routes as a type: `hc<AgentApp>(baseUrl)` is a typed client of them. */
export type AgentApp = ReturnType<typeof createApp>;

export function createApp(options: AppOptions = {}) {
  // Chained, so the routes' types (paths, inputs, JSON answers) flow into AgentApp for `hc`.
  const app = new Hono<AppEnv>()
    .use(assignRequestId, stampRequestId)
    .route("/", health)
    .route("/", playgroundRoutes)
    .use("/api/*", withSettings, requireUser)
    .route("/", me)
    .route("/", runRoutes(options))
    .route("/", historyRoutes)
    .route("/", imageRoutes);
  mountOpenApi(app);
  app.notFound((c) => c.json(errorBody("NOT_FOUND", `no route for ${c.req.method} ${c.req.path}`), 404));
  app.onError((error, c) => {
    // A service that did not answer within its deadline is an outage, not a bug: retry shortly.
    if (error instanceof DeadlineExceeded) {
      log.warn("request.upstream_timeout", { request_id: c.var.requestId, path: c.req.path, message: error.message });
      return c.json(errorBody("UPSTREAM_UNAVAILABLE", `${error.message}; retry shortly`, { retryable: true }), 503);
    }
    log.error("request.failed", { request_id: c.var.requestId, path: c.req.path, error: error.name, message: error.message });
    return c.json(errorBody("INTERNAL", "the request failed unexpectedly", { request_id: c.var.requestId }), 500);
  });
  return app;
}
