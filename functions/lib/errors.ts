// The one JSON error shape every route of every Worker answers with, and the stable codes the
// agent Worker's may carry (the Tool Agent's are in functions/tool-agent/errors.ts).
import { z } from "zod";

export const ERROR_CODES = [
  "UNAUTHENTICATED",
  "INVALID_REQUEST",
  "CONFIG_INVALID",
  "UPSTREAM_UNAVAILABLE",
  "NOT_FOUND",
  "CONFLICT",
  "INTERNAL",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorBody<Code extends string = ErrorCode> {
  error: { code: Code; message: string; [detail: string]: unknown };
}

/**
 * The error shape as a schema for an OpenAPI document, over one Worker's codes: details beyond
 * code and message vary by code.
 */
export function errorBodySchema<const Codes extends readonly [string, ...string[]]>(codes: Codes) {
  return z
    .object({
      error: z
        .object({
          code: z.enum(codes).describe("stable; clients branch on it"),
          message: z.string().describe("for people: what happened and what to do"),
          request_id: z.string().optional().describe("the id in the x-request-id header, to find the log line"),
        })
        .catchall(z.unknown()),
    })
    .meta({ id: "Error" });
}

/** The agent Worker's error schema. */
export const ErrorBodySchema = errorBodySchema(ERROR_CODES);

export function errorBody(code: ErrorCode, message: string, details: Record<string, unknown> = {}): ErrorBody {
  return { error: { code, message, ...details } };
}
