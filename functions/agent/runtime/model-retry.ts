// One retry of a model call that failed in a way worth retrying, with the AI SDK's rules: an
// APICallError the provider marked retryable (408, 409, 429, 5xx, a network failure), after the
// delay the provider asked for (retry-after-ms, then retry-after, when within 0..60 s), else
// `fallbackDelayMs`. The intent stage (intent.ts) and the tool loop (tool-loop.ts) call the model
// without streamText and use this where it would have retried. A cancel during the wait ends it at once.
import { APICallError } from "ai";

export function retryDelayMs(error: unknown, fallbackDelayMs: number): number {
  const headers = APICallError.isInstance(error) ? error.responseHeaders : undefined;
  if (!headers) return fallbackDelayMs;
  let ms: number | undefined;
  const retryAfterMs = headers["retry-after-ms"];
  if (retryAfterMs && !Number.isNaN(Number.parseFloat(retryAfterMs))) ms = Number.parseFloat(retryAfterMs);
  const retryAfter = headers["retry-after"];
  if (retryAfter && ms === undefined) {
    const seconds = Number.parseFloat(retryAfter);
    ms = Number.isNaN(seconds) ? Date.parse(retryAfter) - Date.now() : seconds * 1000;
  }
  return ms !== undefined && !Number.isNaN(ms) && ms >= 0 && ms < 60_000 ? ms : fallbackDelayMs;
}

export const isRetryable = (error: unknown) => APICallError.isInstance(error) && error.isRetryable;

export async function withOneRetry<T>(
  call: () => PromiseLike<T>,
  options: { abortSignal?: AbortSignal; fallbackDelayMs?: number } = {},
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!isRetryable(error) || options.abortSignal?.aborted) throw error;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, retryDelayMs(error, options.fallbackDelayMs ?? 2_000));
      options.abortSignal?.addEventListener(
        "abort",
        () => {
          clearTimeout(timer);
          reject(options.abortSignal?.reason);
        },
        { once: true },
      );
    });
    return call();
  }
}
