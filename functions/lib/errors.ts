// The one JSON error shape every route answers with, and the stable codes it may carry.
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

export interface ErrorBody {
  error: { code: ErrorCode; message: string; [detail: string]: unknown };
}

/** The error shape as a schema, for the OpenAPI document: details beyond code and message vary by code. */
export const ErrorBodySchema = z
  .object({
    error: z
      .object({
        code: z.enum(ERROR_CODES).describe("stable; clients branch on it"),
        message: z.string().describe("for people: what happened and what to do"),
        request_id: z.string().optional().describe("the id in the x-request-id header, to find the log line"),
      })
      .catchall(z.unknown()),
  })
  .meta({ id: "Error" });

export function errorBody(code: ErrorCode, message: string, details: Record<string, unknown> = {}): ErrorBody {
  return { error: { code, message, ...details } };
}
