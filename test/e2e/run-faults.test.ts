// Faults on `wrangler dev` with its own data plane: a hung PostgREST ends a run with
// DATABASE_UNAVAILABLE within the deadline, and a run whose end could not be recorded (the
// database went away during it) is finished in the runs table by its hub once the database is
// back. The model is a local HTTP endpoint that holds its answer until the test releases it,
// then refuses (400, OpenAI's error shape): the test decides when the run ends.
import { createServer, type Server } from "node:http";
import pg from "pg";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { SEEDED_USERS } from "../../supabase/local/auth-tokens.ts";
import { SUPERUSER_PASSWORD } from "../../supabase/local/postgres.ts";
import { hang, resume } from "../support/hang.ts";
import { parseSseEvents } from "../support/sse-events.ts";
import { startWranglerDev, type WranglerDev } from "../support/wrangler-dev.ts";

let dev: WranglerDev;
let model: Server;
let modelCalls = 0;
let releaseModel: () => void = () => {};
let modelCalled: () => void = () => {};

beforeAll(async () => {
  model = createServer((req, res) => {
    req.resume();
    modelCalls++;
    modelCalled();
    const refuse = () =>
      res
        .writeHead(400, { "content-type": "application/json" })
        .end(JSON.stringify({ error: { message: "refused by the test model", type: "invalid_request_error", param: null, code: null } }));
    // Only the run's first model call is held; later ones (if any) are refused at once.
    if (modelCalls === 1) new Promise<void>((release) => (releaseModel = release)).then(refuse);
    else refuse();
  });
  await new Promise<void>((ready) => model.listen(0, "127.0.0.1", ready));
  const address = model.address();
  const port = typeof address === "object" && address ? address.port : 0;
  dev = await startWranglerDev({
    vars: { AGENT_MODEL_BASE_URL: `http://127.0.0.1:${port}/v1`, AGENT_MODEL_API_KEY: "test-key", DATA_PLANE_TIMEOUT_MS: "1000" },
  });
}, 120_000);

afterEach(async () => {
  for (const target of ["postgres", "postgrest"] as const) resume(dev.plane, target);
  await dev.plane.startPostgres();
});

afterAll(async () => {
  await dev?.stop();
  model?.close();
});

function runBody() {
  const id = crypto.randomUUID();
  return {
    threadId: `thread-${id}`,
    runId: `run-${id}`,
    messages: [{ id, role: "user", content: "What's on today?" }],
    state: {},
    tools: [],
    context: [],
    forwardedProps: { timezone: "UTC" },
  };
}

const events = parseSseEvents;

async function startRun(body: ReturnType<typeof runBody>) {
  const response = await fetch(`${dev.url}/api/v1/agent/runs`, {
    method: "POST",
    headers: { authorization: `Bearer ${await dev.token()}`, "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return response.text();
}

test("PostgREST hung: RUN_ERROR DATABASE_UNAVAILABLE within the deadline, history 503", async () => {
  await hang(dev.plane, "postgrest");
  const body = runBody();
  const began = performance.now();
  const stream = events(await startRun(body));
  console.log(
    `wrangler dev: RUN_ERROR with PostgREST hung (DATA_PLANE_TIMEOUT_MS=1000) after ${(performance.now() - began).toFixed(0)} ms`,
  );
  expect(stream.map((event) => event.type)).toEqual(["RUN_STARTED", "RUN_ERROR"]);
  expect(stream.at(-1)).toMatchObject({ code: "DATABASE_UNAVAILABLE" });
  const history = await fetch(`${dev.url}/api/v1/agent/threads/${body.threadId}/history`, {
    headers: { authorization: `Bearer ${await dev.token()}` },
  });
  expect(history.status).toBe(503);
});

test("the database goes away during a run: RUN_ERROR; once it is back, the runs row is failed with that code", async () => {
  const body = runBody();
  const calledModel = new Promise<void>((called) => (modelCalled = called));
  modelCalls = 0;
  const text = startRun(body);
  await calledModel; // the run's start is recorded; it waits for the model
  await dev.plane.stopPostgres();
  releaseModel();
  const stream = events(await text);
  const end = stream.at(-1);
  expect(end?.type).toBe("RUN_ERROR");

  await dev.plane.startPostgres();
  const db = new pg.Client({
    host: "127.0.0.1",
    port: dev.plane.postgresPort,
    user: "postgres",
    password: SUPERUSER_PASSWORD,
    database: "postgres",
  });
  await db.connect();
  try {
    const deadline = Date.now() + 60_000;
    let row: { status: string; error_code: string | null } | undefined;
    while (Date.now() < deadline) {
      row = (
        await db.query("select status, error_code from public.runs where owner_id = $1 and id = $2", [SEEDED_USERS.alice.id, body.runId])
      ).rows[0];
      if (row && row.status !== "running") break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(row).toEqual({ status: "failed", error_code: end?.code });
  } finally {
    await db.end();
  }
}, 90_000);
