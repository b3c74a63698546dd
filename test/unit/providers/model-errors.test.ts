// What a failed model call tells the user: a permanent 4xx is not "try again", and the status
// survives the AI SDK's retry wrapper.
import { APICallError, RetryError } from "ai";
import { describe, expect, test } from "vitest";
import { describeModelFailure, providerStatus } from "../../../functions/agent/runtime/model-errors.ts";

const apiError = (statusCode: number | undefined) =>
  new APICallError({
    message: "provider said: secret-body sk-live-123",
    url: "https://api.example/v1/chat/completions",
    requestBodyValues: {},
    statusCode,
    responseBody: "secret-body",
  });
const retried = (...errors: unknown[]) => new RetryError({ message: "Failed after 2 attempts", reason: "maxRetriesExceeded", errors });

describe("describeModelFailure", () => {
  test("keeps the provider status through the retry wrapper", () => {
    expect(providerStatus(retried(apiError(500), apiError(503)))).toBe(503);
    expect(describeModelFailure(retried(apiError(500), apiError(503)))).toMatchObject({ code: "MODEL_UNAVAILABLE", status: 503 });
  });

  test.each([
    [400, "it rejected the request"],
    [401, "its key or access settings were refused"],
    [403, "its key or access settings were refused"],
    [404, "the configured model or endpoint was not found"],
    [422, "it rejected the request"],
  ])("HTTP %i is a permanent rejection, also when wrapped", (status, why) => {
    for (const error of [apiError(status), retried(apiError(status))]) {
      const failure = describeModelFailure(error);
      expect(failure.code).toBe("MODEL_REQUEST_REJECTED");
      expect(failure.message).toContain(why);
      expect(failure.message).toContain(`HTTP ${status}`);
      expect(failure.message).not.toContain("try again");
    }
  });

  test.each([408, 409, 429, 500, 502, 503])("HTTP %i is unreachable for now: try again", (status) => {
    expect(describeModelFailure(retried(apiError(status), apiError(status)))).toEqual({
      code: "MODEL_UNAVAILABLE",
      status,
      message: `the language model could not be reached (HTTP ${status}); please try again`,
    });
  });

  test("a network failure has no status and says try again", () => {
    expect(describeModelFailure(retried(new TypeError("fetch failed"), new TypeError("fetch failed")))).toEqual({
      code: "MODEL_UNAVAILABLE",
      status: undefined,
      message: "the language model could not be reached; please try again",
    });
  });

  test("never repeats the provider's message or body", () => {
    for (const status of [400, 500]) expect(JSON.stringify(describeModelFailure(apiError(status)))).not.toMatch(/secret-body|sk-live/);
  });
});
