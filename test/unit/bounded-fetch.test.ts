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

describe("boundedFetch retries reads that fail fast, within the same deadline", () => {
  let flaky: Server;
  let flakyUrl: string;
  let answers: number[] = [];
  beforeAll(async () => {
    // Answers 503 (PostgREST while it reconnects to Postgres) until told otherwise.
    flaky = createServer((_req, res) => {
      answers.push(Date.now());
      res.writeHead(answers.length <= unavailableTimes ? 503 : 200).end();
    });
    await new Promise<void>((ready) => flaky.listen(0, "127.0.0.1", ready));
    const address = flaky.address();
    flakyUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/`;
  });
  afterAll(() => flaky.close());
  let unavailableTimes = 0;

  test("a read that meets 503 twice succeeds on the third try", async () => {
    [answers, unavailableTimes] = [[], 2];
    expect((await boundedFetch(5_000)(flakyUrl)).status).toBe(200);
    expect(answers).toHaveLength(3);
  });

  test("a write is never repeated", async () => {
    [answers, unavailableTimes] = [[], 2];
    expect((await boundedFetch(5_000)(flakyUrl, { method: "POST", body: "{}" })).status).toBe(503);
    expect(answers).toHaveLength(1);
  });

  test("a read that keeps meeting 503 stops trying before the deadline", async () => {
    [answers, unavailableTimes] = [[], 1_000];
    const response = await boundedFetch(1_000)(flakyUrl).catch((error: Error) => error);
    expect(response instanceof Response ? response.status : (response as Error).name).toBeOneOf([503, "TimeoutError"]);
    expect(answers.length).toBeGreaterThan(1);
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
