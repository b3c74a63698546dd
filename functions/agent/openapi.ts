// The agent Worker's HTTP contract as an OpenAPI 3.1 document. Each route declares, next to its
// handler, its request schemas (checked by the same middleware that documents them) and its
// responses; this module adds what they share: the document's header, the bearer scheme, the
// error shape of every 4xx and 5xx, request validation that answers in that shape, and the two
// routes that serve the document and a page to read it.
import type { Context, Env, Hono, ValidationTargets } from "hono";
import { type ContentWithResolver, type GenerateSpecOptions, openAPIRouteHandler, resolver, validator } from "hono-openapi";
import type { z } from "zod";
import { version } from "../../package.json";
import { ErrorBodySchema, errorBody } from "../lib/errors.ts";

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
  exclude: ["/openapi.json", "/docs"],
  defaultValidationErrorResponse: {
    description: "INVALID_REQUEST: the request does not match its schema; `field` names the first field at fault",
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
  },
};

const errorContent = { "application/json": { schema: resolver(ErrorBodySchema) } };

/** describeRoute responses for error statuses, all in the one error shape. */
export function errorResponses(statuses: Record<number, string>) {
  return Object.fromEntries(Object.entries(statuses).map(([status, description]) => [status, { description, content: errorContent }]));
}

/** What any route under /api/ may answer before its handler runs (settings, then requireUser), or when it fails. */
export const API_ERRORS = errorResponses({
  401: "UNAUTHENTICATED: no acceptable bearer token; `reason` says why",
  500: "CONFIG_INVALID (a setting is missing or invalid) or INTERNAL (an unexpected failure)",
  503: "UPSTREAM_UNAVAILABLE: the signing keys or the database could not be reached; retry shortly",
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

/** describeRoute content for a JSON body of `schema`. */
export function jsonContent(schema: z.ZodType) {
  return { "application/json": { schema: resolver(schema) } };
}

/** The path of a zod issue as a field name: `messages[0].content`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (name, key) => (typeof key === "number" ? `${name}[${key}]` : name ? `${name}.${String(key)}` : String(key)),
    "",
  );
}

/** Validates one part of the request with `schema`; a mismatch is a 400 INVALID_REQUEST naming the fields. */
export function validated<Schema extends z.ZodType, Target extends keyof ValidationTargets, E extends Env>(target: Target, schema: Schema) {
  return validator<Schema, Target, E, string>(target, schema, (result, c: Context<E>) => {
    if (result.success) return;
    const issues = result.error.map((issue) => ({
      field: fieldPath((issue.path ?? []).map((p) => (typeof p === "object" ? p.key : p))),
      problem: issue.message,
    }));
    const where = target === "query" ? "query parameter" : target === "param" ? "path parameter" : target === "header" ? "header" : "field";
    const message = issues.map((issue) => `${where} ${issue.field || "(body)"}: ${issue.problem}`).join("; ");
    return c.json(errorBody("INVALID_REQUEST", message, { field: issues[0]?.field ?? "", problems: issues }), 400);
  });
}

/**
 * The /docs page: Scalar's API reference, loaded by the reader's browser from its CDN, reading
 * /openapi.json. Written here rather than through @scalar/hono-api-reference, which adds only
 * this page and a colour theme to the Worker's bundle.
 */
const DOCS_PAGE = `<!doctype html>
<html>
  <head>
    <title>edge-agent API</title>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
  </head>
  <body>
    <div id="app"></div>
    <script type="module">
      import { createApiReference } from "https://cdn.jsdelivr.net/npm/@scalar/api-reference/esm.js";
      createApiReference("#app", { url: "/openapi.json" });
    </script>
  </body>
</html>
`;

/** GET /openapi.json (the document) and GET /docs (a page to read and try it). */
export function mountOpenApi<E extends Env>(app: Hono<E>): void {
  app.get("/openapi.json", openAPIRouteHandler(app, OPENAPI_OPTIONS));
  app.get("/docs", (c) => c.html(DOCS_PAGE));
}
