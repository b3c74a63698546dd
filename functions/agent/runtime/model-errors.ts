// What a failed model call means, for the run's RUN_ERROR and the operator's log. The AI SDK
// retries retryable failures itself and then throws a RetryError that wraps every attempt's
// error, so the provider's HTTP status is read from the last attempt, not the wrapper.
// Only the status and a fixed sentence leave this module: never the provider's body or message.
import { APICallError, RetryError } from "ai";
import { ModelSilent } from "./model-deadline.ts";

/** The provider's HTTP status of the (last) failed attempt, when there was an HTTP answer. */
export function providerStatus(error: unknown): number | undefined {
  const last = RetryError.isInstance(error) ? error.lastError : error;
  return APICallError.isInstance(last) ? last.statusCode : undefined;
}

/**
 * A 4xx other than timeout (408), conflict (409) and rate limit (429) says the request itself
 * is wrong (schema, key, model name): asking again cannot succeed.
 */
export function isPermanentRejection(status: number | undefined): status is number {
  return status !== undefined && status >= 400 && status < 500 && ![408, 409, 429].includes(status);
}

export interface ModelFailureDescription {
  code: "MODEL_REQUEST_REJECTED" | "MODEL_UNAVAILABLE";
  message: string;
  status: number | undefined;
}

export function describeModelFailure(error: unknown): ModelFailureDescription {
  const status = providerStatus(error);
  if (isPermanentRejection(status)) {
    const why =
      status === 401 || status === 403
        ? "its key or access settings were refused"
        : status === 404
          ? "the configured model or endpoint was not found"
          : "it rejected the request";
    return {
      code: "MODEL_REQUEST_REJECTED",
      status,
      message: `the language model provider could not serve this run: ${why} (HTTP ${status}). Retrying will not help; the service's model settings need attention`,
    };
  }
  if (error instanceof ModelSilent)
    return { code: "MODEL_UNAVAILABLE", status, message: "the language model stopped answering; please try again" };
  const shown = status === undefined ? "" : ` (HTTP ${status})`;
  return { code: "MODEL_UNAVAILABLE", status, message: `the language model could not be reached${shown}; please try again` };
}

/** A short label for logs: the error's class, never its message (it may quote the provider). */
export function errorKind(error: unknown): string {
  const last = RetryError.isInstance(error) ? error.lastError : error;
  return last instanceof Error ? last.name : typeof last;
}
