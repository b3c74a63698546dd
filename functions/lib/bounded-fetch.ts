// Every call to the data plane (PostgREST, the key set, object storage) has a deadline: a
// hung server (a stopped process, a dropped connection that never resets) must fail a call,
// not hold a run, a history page or the CLI forever.

/** Default deadline for one data-plane call (DATA_PLANE_TIMEOUT_MS overrides it). */
export const DATA_PLANE_TIMEOUT_MS = 5_000;

export class DeadlineExceeded extends Error {
  override readonly name = "TimeoutError";
}

/** Answers worth another try for a read: PostgREST reconnecting to Postgres (503), a proxy's 520. */
const RETRY_STATUSES = new Set([503, 520]);
const firstRetryMs = 250;

/**
 * A fetch whose every call ends within `timeoutMs`, headers and body alike (the abort also
 * ends a body still streaming). A read (GET, HEAD) that fails fast (connection refused, 503
 * while PostgREST reconnects) is tried again with backoff (250 ms, 500 ms, ...) but only while
 * the same deadline allows: the bound holds whatever happens. Writes are never repeated here.
 * A caller's own signal still works next to the deadline.
 */
export function boundedFetch(timeoutMs: number, inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const endsAt = Date.now() + timeoutMs;
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
    const isRead = method === "GET" || method === "HEAD";
    /** Waits before the next attempt; false when no attempt fits before the deadline. */
    const backoff = async (attempt: number) => {
      const wait = firstRetryMs * 2 ** attempt;
      if (!isRead || signal.aborted || Date.now() + wait >= endsAt) return false;
      await new Promise((resolve) => setTimeout(resolve, wait));
      return !signal.aborted;
    };
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await inner(input, { ...init, signal });
      } catch (error) {
        if (await backoff(attempt)) continue;
        throw error;
      }
      if (!RETRY_STATUSES.has(response.status) || !isRead || Date.now() + firstRetryMs * 2 ** attempt >= endsAt) return response;
      await response.body?.cancel();
      if (!(await backoff(attempt))) throw new DeadlineExceeded(`the data plane answered ${response.status} until the deadline`);
    }
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
