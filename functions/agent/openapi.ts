// The agent Worker's HTTP contract as an OpenAPI 3.1 document. Each route declares, next to its
// handler, its request schemas (checked by the same middleware that documents them) and its
// responses; this module adds the document's header, the bearer scheme and what every route under
// /api/ may answer. The error shape, validation and the /docs page are shared with the Tool Agent
// (functions/lib/openapi.ts).
import type { Env, Hono } from "hono";
import type { ContentWithResolver, GenerateSpecOptions } from "hono-openapi";
import { version } from "../../package.json";
import { errorResponses, mountOpenApi as mountDocument, VALIDATION_ERROR_RESPONSE } from "../lib/openapi.ts";

export { errorResponses, jsonContent, validated } from "../lib/openapi.ts";

export const BEARER = [{ bearer: [] }];

export const OPENAPI_OPTIONS: Partial<GenerateSpecOptions> = {
  documentation: {
    openapi: "3.1.0",
    info: {
      title: "edge-agent",
      version,
      description:
        "Chat backend for a calendar, contacts and memory assistant. Runs stream AG-UI events over Server-Sent Events. Every error is JSON in one shape (Error) with a stable code.",
    },
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "The user's Supabase access token" } },
    },
  },
  defaultValidationErrorResponse: VALIDATION_ERROR_RESPONSE,
};

/** What any route under /api/ may answer before its handler runs (settings, then requireUser), or when it fails. */
export const API_ERRORS = errorResponses({
  401: "UNAUTHENTICATED: no acceptable bearer token; `reason` says why",
  500: "CONFIG_INVALID (a setting is missing or invalid) or INTERNAL (an unexpected failure)",
  503: "UPSTREAM_UNAVAILABLE: the signing keys, the database or the run's event log could not be reached; retry shortly",
});

/** describeRoute content of a run's event stream (the body of a 200 that streams). */
export const EVENT_STREAM: ContentWithResolver = {
  "text/event-stream": {
    schema: {
      type: "string",
      description:
        "Server-Sent Events: one AG-UI event per frame, `id:` its sequence number in the run (for resuming), `data:` the event as JSON. Failures after the stream starts arrive as RUN_ERROR. See docs/agent-runs.md.",
    },
  },
};

/** GET /openapi.json and GET /docs for the agent Worker. */
export function mountOpenApi<E extends Env>(app: Hono<E>): void {
  mountDocument(app, OPENAPI_OPTIONS, "edge-agent API");
}
