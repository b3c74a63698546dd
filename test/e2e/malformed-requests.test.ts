// A few thousand malformed HTTP requests against the agent Worker on `wrangler dev`, to every
// route: bad JSON, wrong types, hostile strings, large bodies, bad headers, bad cursors and
// bad ids in paths. None may answer 5xx; every error has the documented JSON shape with the
// request id; every response carries x-request-id; and no seeded row changes.
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ERROR_CODES } from "../../functions/lib/errors.ts";
import { SUPERUSER_PASSWORD } from "../../supabase/local/postgres.ts";
import { startWranglerDev, type WranglerDev } from "../support/wrangler-dev.ts";

const REQUESTS = 3_000;
const CONCURRENCY = 6;

let dev: WranglerDev;
let token: string;
let fuzzUser: string;

async function withDatabase<T>(work: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({
    host: "127.0.0.1",
    port: dev.plane.postgresPort,
    user: "postgres",
    password: SUPERUSER_PASSWORD,
    database: "postgres",
  });
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

/** Every row not owned by the fuzzing user: the seeded data must be exactly as it was. */
const seededSnapshot = () =>
  withDatabase(async (db) => {
    const parts: unknown[] = [];
    for (const table of ["schedule_items", "contacts", "user_memory", "threads", "runs", "messages"]) {
      const rows = await db.query(`select md5(row_to_json(t)::text) as h from public.${table} t where owner_id <> $1 order by 1`, [
        fuzzUser,
      ]);
      parts.push([table, rows.rows.map((row) => row.h)]);
    }
    const subscriptions = await db.query("select md5(row_to_json(s)::text) as h from public.schedule_subscriptions s order by 1");
    parts.push(["schedule_subscriptions", subscriptions.rows.map((row) => row.h)]);
    return JSON.stringify(parts);
  });

beforeAll(async () => {
  dev = await startWranglerDev();
  fuzzUser = crypto.randomUUID();
  await withDatabase((db) =>
    db.query("insert into auth.users (id, email) values ($1, $2)", [fuzzUser, `fuzz-${fuzzUser.slice(0, 8)}@example.test`]),
  );
  token = await dev.token(fuzzUser);
}, 120_000);

afterAll(async () => {
  await dev?.stop();
});

// ---- generators -------------------------------------------------------------------------

const hostile = fc.constantFrom(
  "\u0000",
  "a\u0000",
  "\uD800",
  "x\uDFFF",
  "",
  " ",
  "‮",
  "x".repeat(300),
  "'; drop table threads; --",
  "../../etc/passwd",
  "%00",
  "{}",
  "null",
);
const text = fc.oneof(hostile, fc.string({ maxLength: 20 }), fc.string({ unit: "binary", maxLength: 20 }));
const pathSegment = fc.oneof(
  fc.constantFrom(
    "%00",
    "a%00b",
    "%ED%A0%80",
    "%ZZ",
    "%",
    "..%2F..",
    "x".repeat(129),
    "x".repeat(3000),
    "%F0%9F%98%80",
    "run-1",
    "00000000-0000-0000-0000-000000000000",
    "%20",
    "a%0Ab",
  ),
  fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/),
);
const cursor = fc.constantFrom("", " ", "-2", "-1", "0", "1.5", "1e3", "0x10", "99999999999999999999", "NaN", "abc", "%00", "%20");
const datetimeLike = fc.constantFrom(
  "0000-01-01T00:00:00Z",
  "+275760-09-13T00:00:00Z",
  "2026-04-23T16:00:00+25:00",
  "2026-04-23T16:00:00Z",
  "2026-02-30T00:00:00Z",
  "yesterday",
  "",
  "%00",
);

const message = fc.record(
  {
    id: fc.oneof(text, fc.uuid(), fc.integer()),
    role: fc.oneof(fc.constantFrom("user", "assistant", "tool", "system", "developer", "admin"), text),
    content: fc.oneof(
      text,
      fc.constant(null),
      fc.array(
        fc.oneof(
          fc.record({ type: fc.constant("text"), text }),
          fc.record({
            type: fc.constant("image"),
            source: fc.record(
              {
                type: fc.constantFrom("url", "data", "ftp"),
                value: fc.oneof(
                  fc.constantFrom(
                    "https://",
                    "https://exa mple.com/x.png",
                    "http://example.com/a.png",
                    "https://example.com/a.png",
                    "javascript:alert(1)",
                  ),
                  text,
                ),
                mimeType: fc.oneof(fc.constantFrom("image/png", "application/pdf"), text),
              },
              { requiredKeys: ["type", "value"] },
            ),
          }),
          fc.record({ type: text }),
        ),
        { maxLength: 6 },
      ),
    ),
  },
  { requiredKeys: [] },
);
const runBody = fc.record(
  {
    threadId: fc.oneof(text, fc.uuid(), fc.integer(), fc.constant(null)),
    runId: fc.oneof(text, fc.uuid(), fc.integer()),
    messages: fc.oneof(fc.array(message, { maxLength: 4 }), text, fc.constant(null)),
    state: fc.oneof(fc.object({ maxDepth: 2 }), text),
    tools: fc.oneof(fc.constant([]), fc.array(fc.object({ maxDepth: 1 }), { maxLength: 2 }), text),
    context: fc.oneof(fc.constant([]), fc.array(fc.record({ description: text, value: text }), { maxLength: 2 }), text),
    forwardedProps: fc.oneof(fc.record({ timezone: fc.oneof(text, fc.constantFrom("UTC", "Asia/Shanghai")) }), fc.constant(null), text),
  },
  { requiredKeys: [] },
);
const postBody = fc.oneof(
  { weight: 120, arbitrary: runBody.map((body) => JSON.stringify(body)) },
  {
    weight: 20,
    arbitrary: fc.constantFrom(
      "",
      "{",
      '{"threadId":',
      "null",
      "[]",
      '"text"',
      '{"__proto__":{"runId":"x"}}',
      "\u0000",
      '{"a":"\\ud800"}',
      '{"messages":[{"id":"m","role":"user","content":"\\u0000"}]}',
    ),
  },
  { weight: 20, arbitrary: fc.json({ maxDepth: 3 }) },
  { weight: 20, arbitrary: fc.string({ unit: "binary", maxLength: 60 }) },
  // Large bodies within reason: a megabyte of nesting or of one string.
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      `${"[".repeat(50_000)}${"]".repeat(50_000)}`,
      JSON.stringify({ threadId: "t", runId: "r", messages: [{ id: "m", role: "user", content: "x".repeat(1_000_000) }] }),
    ),
  },
);

interface Probe {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const authHeader = fc.oneof(
  { weight: 8, arbitrary: fc.constant("good") },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "",
      "Bearer",
      "Bearer ",
      "Basic abc",
      "Bearer a.b.c",
      "Bearer eyJhbGciOiJub25lIn0.e30.",
      `Bearer ${"x".repeat(9000)}`,
      "bearer  x",
      "none",
    ),
  },
);
const extraHeaders = fc.record(
  {
    "x-request-id": fc.constantFrom("", "abc", "a b", "x".repeat(300), "../x", "ok-123"),
    "last-event-id": cursor,
    "content-type": fc.constantFrom("application/json", "text/plain", "application/json; charset=utf-16", "multipart/form-data", ""),
    accept: fc.constantFrom("text/event-stream", "*/*", "application/xml"),
  },
  { requiredKeys: [] },
);

const probe: fc.Arbitrary<Probe> = fc
  .record({
    auth: authHeader,
    extra: extraHeaders,
    route: fc.oneof(
      { weight: 5, arbitrary: postBody.map((body) => ({ method: "POST", path: "/api/v1/agent/runs", body })) },
      {
        weight: 2,
        arbitrary: fc
          .tuple(pathSegment, fc.option(cursor))
          .map(([id, after]) => ({ method: "GET", path: `/api/v1/agent/runs/${id}/events${after === null ? "" : `?after=${after}`}` })),
      },
      { weight: 1, arbitrary: pathSegment.map((id) => ({ method: "POST", path: `/api/v1/agent/runs/${id}/cancel` })) },
      {
        weight: 2,
        arbitrary: fc
          .tuple(fc.constantFrom("threads", "runs"), pathSegment, fc.option(cursor), fc.option(cursor))
          .map(([under, id, limit, before]) => ({
            method: "GET",
            path: `/api/v1/agent/${under}/${id}/history?${limit === null ? "" : `limit=${limit}&`}${before === null ? "" : `before=${before}`}`,
          })),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(pathSegment, cursor)
          .map(([id, limit]) => ({ method: "GET", path: `/api/v1/agent/history?threadId=${id}&limit=${limit}` })),
      },
      {
        weight: 1,
        arbitrary: fc.tuple(fc.option(cursor), fc.option(datetimeLike)).map(([limit, before]) => ({
          method: "GET",
          path: `/api/v1/agent/threads?${limit === null ? "" : `limit=${limit}&`}${before === null ? "" : `before=${encodeURIComponent(before)}`}`,
        })),
      },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom("/api/v1/me", "/health", "/api/v1/nothing", "/api/v1/agent/runs", "/%00", "/api/v1/agent/threads/x")
          .chain((path) => fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH").map((method) => ({ method, path }))),
      },
    ),
  })
  .map(({ auth, extra, route }) => {
    const headers: Record<string, string> = { ...extra };
    if (auth === "good") headers.authorization = `Bearer ${token}`;
    else if (auth !== "none") headers.authorization = auth;
    return { ...route, headers };
  });

// ---- the run ----------------------------------------------------------------------------

interface Finding {
  probe: Probe;
  status: number;
  problem: string;
  body: string;
}

async function send(request: Probe): Promise<{ status: number; finding?: Finding }> {
  const response = await fetch(`${dev.url}${request.path}`, {
    method: request.method,
    headers: request.headers,
    ...(request.body !== undefined && request.method !== "GET" ? { body: request.body } : {}),
    signal: AbortSignal.timeout(30_000),
  });
  const id = response.headers.get("x-request-id");
  const contentType = response.headers.get("content-type") ?? "";
  const fail = (problem: string, body = "") => ({
    status: response.status,
    finding: { probe: { ...request, body: request.body?.slice(0, 200) }, status: response.status, problem, body: body.slice(0, 300) },
  });
  if (response.status < 400) {
    await response.body?.cancel(); // a run's stream: the run goes on; only the headers matter here
    return id ? { status: response.status } : fail("no x-request-id");
  }
  const body = await response.text();
  if (response.status >= 500) return fail("5xx", body);
  if (!id) return fail("no x-request-id", body);
  if (!contentType.startsWith("application/json")) return fail(`content-type ${contentType}`, body);
  let parsed: { error?: { code?: unknown; message?: unknown; request_id?: unknown } };
  try {
    parsed = JSON.parse(body);
  } catch {
    return fail("error body is not JSON", body);
  }
  const error = parsed.error;
  if (!error || !(ERROR_CODES as readonly unknown[]).includes(error.code) || typeof error.message !== "string" || error.message === "")
    return fail("not the documented error shape", body);
  if (error.request_id !== id) return fail("error.request_id differs from x-request-id", body);
  return { status: response.status };
}

test(`${REQUESTS} malformed requests to every route: no 5xx, documented errors with request ids, seeded data unchanged`, async () => {
  const before = await seededSnapshot();
  const probes = fc.sample(probe, { numRuns: REQUESTS, seed: Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31) });
  const statuses: Record<number, number> = {};
  const findings: Finding[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < probes.length) {
        const outcome = await send(probes[next++]!);
        statuses[outcome.status] = (statuses[outcome.status] ?? 0) + 1;
        if (outcome.finding) findings.push(outcome.finding);
      }
    }),
  );
  console.log(
    `malformed HTTP fuzz on wrangler dev: ${probes.length} requests, statuses ${JSON.stringify(statuses)}, ${findings.length} findings`,
  );
  expect(
    [
      ...new Map(
        findings.map((finding) => [`${finding.problem} ${finding.probe.method} ${finding.probe.path.split("?")[0]}`, finding]),
      ).values(),
    ].slice(0, 8),
  ).toEqual([]);
  expect(await seededSnapshot()).toBe(before);
}, 600_000);
