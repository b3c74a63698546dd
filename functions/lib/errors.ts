// The one JSON error shape every route answers with, and the stable codes it may carry.
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

export function errorBody(code: ErrorCode, message: string, details: Record<string, unknown> = {}): ErrorBody {
  return { error: { code, message, ...details } };
}
