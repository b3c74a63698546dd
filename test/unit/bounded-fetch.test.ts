// The deadline every data-plane call carries: a server that accepts the connection and never
// answers (real sockets, in Node) fails the call instead of holding it.
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { r2PayloadStore } from "../../functions/agent/persistence/payload-store.ts";
import { boundedFetch, DeadlineExceeded, withDeadline } from "../../functions/lib/bounded-fetch.ts";

let silent: Server;
let url: string;
beforeAll(async () => {
  silent = createServer(() => {}); // reads the request, never answers
  await new Promise<void>((ready) => silent.listen(0, "127.0.0.1", ready));
  const address = silent.address();
  url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/`;
});
afterAll(() => {
  silent.closeAllConnections();
  silent.close();
});

const never = new Promise<never>(() => {});

describe("boundedFetch", () => {
  test("a server that never answers: the request fails with TimeoutError", async () => {
    await expect(boundedFetch(200)(url)).rejects.toMatchObject({ name: "TimeoutError" });
  });

  test("the caller's own abort still works next to the deadline", async () => {
    const caller = new AbortController();
    const pending = boundedFetch(60_000)(url, { signal: caller.signal });
    caller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });
});

describe("withDeadline", () => {
  test("work that never settles is rejected, naming what did not answer", async () => {
    await expect(withDeadline(never, 50, "payload storage")).rejects.toThrow(DeadlineExceeded);
    await expect(withDeadline(never, 50, "payload storage")).rejects.toThrow(/payload storage did not answer within 50 ms/);
  });

  test("work that settles in time is passed through", async () => {
    await expect(withDeadline(Promise.resolve(7), 1_000, "x")).resolves.toBe(7);
  });
});

describe("the payload store", () => {
  // An R2 binding whose calls never settle (the shape of a hung storage; local R2 cannot hang).
  const hungBucket = { get: () => never, put: () => never } as unknown as R2Bucket;

  test("a hung read is a missing payload, within the deadline", async () => {
    await expect(r2PayloadStore(hungBucket, { timeoutMs: 50 }).get("tool-payloads/x.json")).resolves.toBeUndefined();
  });

  test("a hung write fails, so the message is marked payload_missing", async () => {
    await expect(r2PayloadStore(hungBucket, { timeoutMs: 50 }).put("tool-payloads/x.json", {})).rejects.toThrow(DeadlineExceeded);
  });
});
