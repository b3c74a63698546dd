// Every call the Tool Agent makes to storage or to a container's object has a deadline, like its
// database calls: one that does not answer in time fails as UPSTREAM_UNAVAILABLE (retryable),
// never holds the request.
import { DeadlineExceeded, withDeadline } from "../lib/bounded-fetch.ts";
import { StoreError } from "./registry/tool-store.ts";

/** How long a container's object may take to start, stop or report its container. */
export const CONTAINER_CONTROL_MS = 30_000;

export async function withinDeadline<T>(work: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  try {
    return await withDeadline(work, timeoutMs, what);
  } catch (error) {
    throw error instanceof DeadlineExceeded ? new StoreError("UPSTREAM_UNAVAILABLE", error.message) : error;
  }
}
