// The answer of POST /select_tool: `{ status, result, error }`. An error is the same
// `{ code, message, ... }` object every Tool Agent error carries, so `answer.error.code` works
// for a failed call and for a refused request alike.
import type { ToolAgentErrorCode } from "../errors.ts";
import { StoreError } from "../registry/tool-store.ts";

export type SelectAnswer =
  | {
      httpStatus: 200;
      body: { status: "success"; result: unknown; error: null; tool_id: string; source: { position: number; type: string } };
    }
  | {
      httpStatus: 202;
      body: {
        status: "approval_required";
        result: null;
        error: null;
        tool_id: string;
        approval: { approval_id: string; cost_usd: number; threshold_usd: number };
      };
    }
  | {
      httpStatus: 400 | 402 | 404 | 409 | 413 | 502 | 503;
      body: { status: "error"; result: null; error: { code: ToolAgentErrorCode; message: string; [detail: string]: unknown } };
    };

/** A successful call whose answer is the tool's body, passed through as it streams. */
export interface StreamAnswer {
  httpStatus: 200;
  stream: Response;
  tool_id: string;
  source: { position: number; type: string };
}

/** HTTP status per error code of a call. */
const STATUS: Partial<Record<ToolAgentErrorCode, 400 | 402 | 404 | 409 | 413 | 502 | 503>> = {
  INVALID_PARAMS: 400,
  NOT_FOUND: 404,
  TOOL_INACTIVE: 409,
  CONFLICT: 409,
  BUDGET_EXCEEDED: 402,
  PAYLOAD_TOO_LARGE: 413,
  TOOL_FAILED: 502,
  INVALID_RESULT: 502,
  TOOL_UNAVAILABLE: 503,
  UPSTREAM_UNAVAILABLE: 503,
};

export function callFailed(code: ToolAgentErrorCode, message: string, details: Record<string, unknown> = {}): SelectAnswer {
  return { httpStatus: STATUS[code] ?? 502, body: { status: "error", result: null, error: { code, message, ...details } } };
}

/** The call's answer; a registry that did not answer is a call that failed, in the call's shape. */
export async function answerOrStoreFailure<A extends SelectAnswer | StreamAnswer>(call: () => Promise<A>): Promise<A | SelectAnswer> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    return callFailed(
      error.code === "INVALID_REQUEST" ? "INVALID_PARAMS" : error.code,
      error.message,
      error.code === "UPSTREAM_UNAVAILABLE" ? { retryable: true } : {},
    );
  }
}
