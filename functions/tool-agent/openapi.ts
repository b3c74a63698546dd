// The Tool Agent's HTTP contract as an OpenAPI 3.1 document (GET /openapi.json, GET /docs),
// declared route by route the way the agent Worker's is.
import type { Env, Hono } from "hono";
import type { GenerateSpecOptions } from "hono-openapi";
import { version } from "../../package.json";
import { errorResponses, mountOpenApi as mountDocument, VALIDATION_ERROR_RESPONSE } from "../lib/openapi.ts";
import { ToolAgentErrorSchema } from "./errors.ts";

export const API_KEY = [{ apiKey: [] }];

const OPTIONS: Partial<GenerateSpecOptions> = {
  documentation: {
    openapi: "3.1.0",
    info: {
      title: "edge-tool-agent",
      version,
      description:
        "The Tool Agent: a registry of tools, and one way to find and run them (its HTTP contract). Every error is JSON in one shape (Error) with a stable code.",
    },
    components: {
      securitySchemes: {
        apiKey: { type: "http", scheme: "bearer", description: "A Tool Agent API key (ta_...), with the scope the route names" },
      },
    },
  },
  defaultValidationErrorResponse: VALIDATION_ERROR_RESPONSE,
};

/** describeRoute error responses in the Tool Agent's error shape. */
export const toolAgentErrors = (statuses: Record<number, string>) => errorResponses(statuses, ToolAgentErrorSchema);

/** What any authenticated route may answer before its handler runs. */
export const AUTH_ERRORS = toolAgentErrors({
  401: "UNAUTHENTICATED: no API key, or an unknown or revoked one",
  403: "FORBIDDEN: the key lacks the scope this route needs",
  429: "RATE_LIMITED: too many keys this instance has not seen, too fast; retry after a second",
  500: "CONFIG_INVALID or INTERNAL",
  503: "UPSTREAM_UNAVAILABLE: the database did not answer; retry shortly",
});

export function mountOpenApi<E extends Env>(app: Hono<E>): void {
  mountDocument(app, OPTIONS, "edge-tool-agent API");
}
