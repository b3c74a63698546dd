// Every call to the data plane (PostgREST, the key set, object storage) has a deadline: a
// hung server (a stopped process, a dropped connection that never resets) must fail a call,
// not hold a run, a history page or the CLI forever.

/** Default deadline for one data-plane call (DATA_PLANE_TIMEOUT_MS overrides it). */
export const DATA_PLANE_TIMEOUT_MS = 5_000;

export class DeadlineExceeded extends Error {
  override readonly name = "TimeoutError";
}

/**
 * A fetch whose every request is aborted after `timeoutMs`, headers and body alike (the abort
 * also ends a body still streaming). A caller's own signal still works next to the deadline.
 */
export function boundedFetch(timeoutMs: number, inner: typeof fetch = fetch): typeof fetch {
  return (input, init) => {
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    return inner(input, { ...init, signal });
  };
}

/** Rejects with DeadlineExceeded when `work` has not settled within `timeoutMs`. */
export function withDeadline<T>(work: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineExceeded(`${what} did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
