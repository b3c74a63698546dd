// The Tool Agent's error codes. Every error is `{ error: { code, message, ... } }`, the shape the
// agent Worker uses; POST /select_tool wraps it as the contract says: `{ status: "error", result:
// null, error: { code, message, ... } }`. docs/tool-agent.md has when each code is answered.
import { type ErrorBody, errorBodySchema } from "../lib/errors.ts";

export const TOOL_AGENT_ERROR_CODES = [
  "UNAUTHENTICATED",
  "FORBIDDEN",
  "RATE_LIMITED",
  "INVALID_REQUEST",
  "NOT_FOUND",
  "CONFLICT",
  "CONFIG_INVALID",
  "UPSTREAM_UNAVAILABLE",
  "INTERNAL",
  "INVALID_PARAMS",
  "TOOL_INACTIVE",
  "TOOL_UNAVAILABLE",
  "TOOL_FAILED",
  "INVALID_RESULT",
  "BUDGET_EXCEEDED",
  "PAYLOAD_TOO_LARGE",
] as const;

export type ToolAgentErrorCode = (typeof TOOL_AGENT_ERROR_CODES)[number];

export const ToolAgentErrorSchema = errorBodySchema(TOOL_AGENT_ERROR_CODES);

export const toolAgentError = (
  code: ToolAgentErrorCode,
  message: string,
  details: Record<string, unknown> = {},
): ErrorBody<ToolAgentErrorCode> => ({
  error: { code, message, ...details },
});
