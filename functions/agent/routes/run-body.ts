// The body of POST /api/v1/agent/runs, read and checked before the handler runs. The validator
// of record is parseRunRequest (runtime/run-request.ts): it applies AG-UI's RunAgentInputSchema
// (the schema the OpenAPI document shows) and then the checks no JSON Schema states (storable
// strings, id lengths, the last message is the user's, https image URLs). Hono's own json
// validator is not used: it reads a body only under a JSON content type (any other is checked
// as {}), and it throws on malformed JSON, which would reach onError as a 500 (decision D31).
import type { RunAgentInput } from "@ag-ui/core";
import { createMiddleware } from "hono/factory";
import { errorBody } from "../../lib/errors.ts";
import type { AppEnv } from "../app-env.ts";
import { parseRunRequest, type RunRequest } from "../runtime/run-request.ts";

/** Typed like a json validator (clients send a RunAgentInput; the handler reads `c.req.valid("json")`, a RunRequest). */
export const runRequestBody = createMiddleware<AppEnv, string, { in: { json: RunAgentInput }; out: { json: RunRequest } }>(
  async (c, next) => {
    const body: unknown = await c.req.json().catch(() => undefined);
    if (body === undefined) return c.json(errorBody("INVALID_REQUEST", "the body must be a JSON RunAgentInput", { field: "(body)" }), 400);
    const parsed = parseRunRequest(body, { acceptLanguage: c.req.header("accept-language") });
    if (!parsed.ok) return c.json(errorBody("INVALID_REQUEST", parsed.problem, { field: parsed.field }), 400);
    c.req.addValidatedData("json", parsed.request);
    await next();
  },
);
