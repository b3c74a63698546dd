// The intent stage's one retry (model-retry.ts) follows the AI SDK's rules: only retryable
// provider errors, after the delay the provider asked for when it is reasonable, and a cancel
// during the wait ends it at once.
import { APICallError } from "ai";
import { describe, expect, test } from "vitest";
import { retryDelayMs, withOneRetry } from "../../../functions/agent/runtime/model-retry.ts";

const apiError = (status: number | undefined, headers?: Record<string, string>) =>
  new APICallError({
    message: "scripted",
    url: "http://model.test",
    requestBodyValues: {},
    statusCode: status,
    responseHeaders: headers,
    isRetryable: status === undefined || status === 429 || status >= 500,
  });

describe("retryDelayMs", () => {
  test("retry-after-ms wins, then retry-after in seconds or as a date, within 0..60 s; otherwise the fallback", () => {
    expect(retryDelayMs(apiError(429, { "retry-after-ms": "10" }), 2_000)).toBe(10);
    expect(retryDelayMs(apiError(429, { "retry-after-ms": "15", "retry-after": "3" }), 2_000)).toBe(15);
    expect(retryDelayMs(apiError(503, { "retry-after": "3" }), 2_000)).toBe(3_000);
    const inTwoSeconds = new Date(Date.now() + 2_000).toUTCString();
    expect(retryDelayMs(apiError(503, { "retry-after": inTwoSeconds }), 9_000)).toBeLessThanOrEqual(2_000);
    expect(retryDelayMs(apiError(503, { "retry-after": "3600" }), 2_000)).toBe(2_000);
    expect(retryDelayMs(apiError(503, { "retry-after-ms": "-5" }), 2_000)).toBe(2_000);
    expect(retryDelayMs(apiError(503), 2_000)).toBe(2_000);
    expect(retryDelayMs(new Error("not an API error"), 2_000)).toBe(2_000);
  });
});

describe("withOneRetry", () => {
  test("a retryable failure is tried once more; a second failure is thrown as it is", async () => {
    let calls = 0;
    const second = apiError(500, { "retry-after-ms": "1" });
    await expect(
      withOneRetry(async () => {
        calls++;
        throw calls === 1 ? apiError(500, { "retry-after-ms": "1" }) : second;
      }),
    ).rejects.toBe(second);
    expect(calls).toBe(2);

    calls = 0;
    expect(await withOneRetry(async () => (++calls === 1 ? Promise.reject(apiError(429, { "retry-after-ms": "1" })) : "ok"))).toBe("ok");
    expect(calls).toBe(2);
  });

  test("a permanent refusal or an error that is not the provider's is not retried", async () => {
    for (const error of [apiError(400), apiError(401), new TypeError("a bug")]) {
      let calls = 0;
      await expect(
        withOneRetry(async () => {
          calls++;
          throw error;
        }),
      ).rejects.toBe(error);
      expect(calls).toBe(1);
    }
  });

  test("a cancel during the wait ends it at once, without the second call", async () => {
    const cancel = new AbortController();
    let calls = 0;
    const started = Date.now();
    const attempt = withOneRetry(
      async () => {
        calls++;
        throw apiError(503, { "retry-after-ms": "5000" });
      },
      { abortSignal: cancel.signal },
    );
    setTimeout(() => cancel.abort(new Error("cancelled by the user")), 20);
    await expect(attempt).rejects.toThrow("cancelled by the user");
    expect(calls).toBe(1);
    expect(Date.now() - started).toBeLessThan(4_000);
  });
});
