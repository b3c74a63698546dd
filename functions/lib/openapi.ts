// What every Worker's OpenAPI document shares: the error shape of every 4xx and 5xx, request
// validation that answers in that shape, and the two routes that serve the document and a page
// to read it. Each route declares its own schemas next to its handler (hono-openapi's
// describeRoute); each Worker names itself in its GenerateSpecOptions.
import type { Context, Env, Hono, ValidationTargets } from "hono";
import { type GenerateSpecOptions, openAPIRouteHandler, resolver, validator } from "hono-openapi";
import type { z } from "zod";
import { ErrorBodySchema, errorBody } from "./errors.ts";

/** The validation error every document declares: what `validated` answers. */
export const VALIDATION_ERROR_RESPONSE: GenerateSpecOptions["defaultValidationErrorResponse"] = {
  description: "INVALID_REQUEST: the request does not match its schema; `field` names the first field at fault",
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
};

/**
 * describeRoute responses for error statuses, all in the one error shape (`schema`: the
 * Worker's own, over its codes; the agent Worker's by default).
 */
export function errorResponses(statuses: Record<number, string>, schema: z.ZodType = ErrorBodySchema) {
  const content = { "application/json": { schema: resolver(schema) } };
  return Object.fromEntries(Object.entries(statuses).map(([status, description]) => [status, { description, content }]));
}

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
const docsPage = (title: string) => `<!doctype html>
<html>
  <head>
    <title>${title}</title>
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
export function mountOpenApi<E extends Env>(app: Hono<E>, options: Partial<GenerateSpecOptions>, pageTitle: string): void {
  const page = docsPage(pageTitle);
  app.get("/openapi.json", openAPIRouteHandler(app, { exclude: ["/openapi.json", "/docs"], ...options }));
  app.get("/docs", (c) => c.html(page));
}
