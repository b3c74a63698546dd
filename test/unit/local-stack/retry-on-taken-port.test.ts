// A server start that lost its free port to another process is tried again; any other failure,
// or the last attempt's, reaches the caller as it was.
import { describe, expect, test } from "vitest";
import { retryOnTakenPort } from "../../../supabase/local/processes.ts";

const taken = () => new Error("wrangler dev exited early:\nAddress already in use (127.0.0.1:33005)");

describe("retryOnTakenPort", () => {
  test("tries again after a taken address, and returns the first start that works", async () => {
    let calls = 0;
    const started = await retryOnTakenPort(async () => {
      if (++calls < 3) throw taken();
      return `server ${calls}`;
    });
    expect(started).toBe("server 3");
  });

  test("gives up after the last attempt with its error", async () => {
    let calls = 0;
    await expect(
      retryOnTakenPort(async () => {
        calls++;
        throw taken();
      }, 2),
    ).rejects.toThrow("Address already in use");
    expect(calls).toBe(2);
  });

  test("any other failure is not retried", async () => {
    let calls = 0;
    await expect(
      retryOnTakenPort(async () => {
        calls++;
        throw new Error("wrangler dev not ready in time");
      }),
    ).rejects.toThrow("not ready in time");
    expect(calls).toBe(1);
  });
});
