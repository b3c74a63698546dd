// Every way the records can refuse maps to a stable code; none of them is a 500, and only an
// unreachable database is retryable.
import { describe, expect, test } from "vitest";
import { classifyRecordFailure, RECORD_PROBLEMS } from "../../../functions/agent/persistence/record-errors.ts";

describe("classifyRecordFailure", () => {
  test.each([
    [{ code: "PT404", message: "RUN_NOT_FOUND" }, 404, "RUN_NOT_FOUND"],
    [{ code: "PT409", message: "RUN_EXISTS" }, 409, "RUN_EXISTS"],
    [{ code: "PT409", message: "RUN_ALREADY_FINISHED" }, 409, "RUN_ALREADY_FINISHED"],
    [{ code: "PT400", message: "INVALID_RECORD" }, 400, "INVALID_RECORD"],
    [{ code: "PT401", message: "NO_USER" }, 401, "NOT_AUTHORIZED"],
    [{ code: "23505", message: "duplicate key" }, 409, "RUN_EXISTS"],
    [{ code: "23514", message: "violates check" }, 400, "INVALID_RECORD"],
    [{ code: "22P05", message: "unsupported Unicode escape" }, 400, "INVALID_RECORD"],
    [{ code: "42501", message: "permission denied" }, 403, "NOT_AUTHORIZED"],
    [{ code: "PGRST301", message: "JWT expired" }, 401, "NOT_AUTHORIZED"],
    [{ code: "PGRST000", message: "could not connect" }, 503, "DATABASE_UNAVAILABLE"],
    [{ code: "08006", message: "connection failure" }, 503, "DATABASE_UNAVAILABLE"],
    [{ code: "", message: "TypeError: fetch failed" }, 0, "DATABASE_UNAVAILABLE"],
  ] as const)("%o with HTTP %i -> %s", (error, status, expected) => {
    expect(classifyRecordFailure(error, status)).toBe(expected);
  });

  test("a raised message that names a prototype key is not one of our codes", () => {
    expect(classifyRecordFailure({ code: "PT400", message: "constructor" }, 400)).toBe("INVALID_RECORD");
    expect(classifyRecordFailure({ code: "PT409", message: "toString" }, 409)).toBe("INVALID_RECORD");
  });

  test("no code answers with a 5xx except the retryable outage", () => {
    for (const [code, meaning] of Object.entries(RECORD_PROBLEMS)) {
      if (meaning.httpStatus >= 500) expect([code, meaning.retryable]).toEqual(["DATABASE_UNAVAILABLE", true]);
      else expect(meaning.retryable).toBe(false);
    }
  });
});
