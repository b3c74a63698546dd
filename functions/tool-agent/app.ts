// The Tool Agent's Hono application. Built twice by index.ts: once for the public entry (API
// keys) and once for the chat agent's service binding (the user it acts for).
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { log } from "../lib/log.ts";
import { assignRequestId, stampRequestId } from "../lib/request-id.ts";
import { withSettingsOf } from "../lib/settings-middleware.ts";
import type { ToolAgentEnv } from "./app-env.ts";
import { type Authenticate, identifyCaller } from "./auth/caller.ts";
import { corsForAllowedOrigins } from "./cors.ts";
import { toolAgentError } from "./errors.ts";
import { mountOpenApi } from "./openapi.ts";
import { StoreError } from "./registry/tool-store.ts";
import { approvalRoutes } from "./routes/approvals.ts";
import { chatRoutes } from "./routes/chat.ts";
import { health } from "./routes/health.ts";
import { mcpRoutes } from "./routes/mcp.ts";
import { registryRoutes } from "./routes/registry.ts";
import { searchRoutes } from "./routes/search.ts";
import { selectRoutes } from "./routes/select.ts";
import { statusRoutes } from "./routes/status.ts";
import { taskRoutes } from "./routes/tasks.ts";
import { loadToolAgentSettings } from "./settings.ts";
import { TaskLimitReached } from "./tasks/submit-task.ts";

const STORE_STATUS = { UPSTREAM_UNAVAILABLE: 503, CONFLICT: 409, INVALID_REQUEST: 400 } as const;

/** Largest request body: a registration carries a module of up to 1 MB, JSON-escaped. */
export const MAX_REQUEST_BYTES = 4 * 1024 * 1024;

const limitBody = bodyLimit({
  maxSize: MAX_REQUEST_BYTES,
  onError: (c) => c.json(toolAgentError("PAYLOAD_TOO_LARGE", `the request body is larger than ${MAX_REQUEST_BYTES} bytes`), 413),
});

export function createToolAgentApp(authenticate: Authenticate) {
  const app = new Hono<ToolAgentEnv>().use(assignRequestId, stampRequestId).route("/", health);
  // Public like /health: the contract is no secret. Everything registered after needs a caller.
  mountOpenApi(app);
  app
    .use("*", limitBody, withSettingsOf(loadToolAgentSettings), corsForAllowedOrigins, identifyCaller(authenticate))
    .route("/", searchRoutes)
    .route("/", selectRoutes)
    .route("/", statusRoutes)
    .route("/", registryRoutes)
    .route("/", approvalRoutes)
    .route("/", chatRoutes)
    .route("/", taskRoutes)
    .route("/", mcpRoutes);
  app.notFound((c) => c.json(toolAgentError("NOT_FOUND", `no route for ${c.req.method} ${c.req.path}`), 404));
  app.onError((error, c) => {
    if (error instanceof TaskLimitReached) {
      return c.json(toolAgentError("RATE_LIMITED", error.message, { limit: error.limit }), 429);
    }
    if (error instanceof StoreError) {
      log.warn("tool_agent.store_failed", { request_id: c.var.requestId, path: c.req.path, code: error.code, message: error.message });
      return c.json(
        toolAgentError(error.code, error.message, error.code === "UPSTREAM_UNAVAILABLE" ? { retryable: true } : {}),
        STORE_STATUS[error.code],
      );
    }
    log.error("request.failed", { request_id: c.var.requestId, path: c.req.path, error: error.name, message: error.message });
    return c.json(toolAgentError("INTERNAL", "the request failed unexpectedly"), 500);
  });
  return app;
}
