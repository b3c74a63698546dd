// The exported app type makes Hono's `hc` a typed client of the agent Worker: paths, inputs and
// JSON answers are checked by the compiler (the expectTypeOf lines fail `npm run typecheck` if
// a handler's answer stops being the declared schema's type), and the calls below go through the
// real app in workerd, against the real data plane.
import { env } from "cloudflare:workers";
import type { RunAgentInput } from "@ag-ui/core";
import { hc, type InferRequestType, type InferResponseType } from "hono/client";
import type { JSONParsed } from "hono/utils/types";
import { beforeAll, describe, expect, expectTypeOf, test } from "vitest";
import type { z } from "zod";
import { type AgentApp, createApp } from "../../functions/agent/app.ts";
import type { HistoryPage, ThreadList } from "../../functions/agent/routes/history-schemas.ts";
import type { Me } from "../../functions/agent/routes/me.ts";
import type { CancelRequested } from "../../functions/agent/routes/runs.ts";
import type { ErrorBody } from "../../functions/lib/errors.ts";
import { SEEDED_USERS } from "../../supabase/local/auth-tokens.ts";
import { runAgentRequest, runInput, tokenFor } from "./support/agent.ts";

let alice: string;
beforeAll(async () => {
  alice = await tokenFor(SEEDED_USERS.alice.id);
});

const app = createApp();
const client = hc<AgentApp>("http://worker", { fetch: (input: RequestInfo | URL, init?: RequestInit) => app.request(input, init, env) });
const auth = () => ({ headers: { authorization: `Bearer ${alice}` } });

describe("hc<AgentApp>", () => {
  test("answers are typed as the declared schemas", () => {
    expectTypeOf<InferResponseType<typeof client.api.v1.agent.threads.$get, 200>>().toEqualTypeOf<ThreadList>();
    // Values the schema leaves open (z.unknown(): copied from stored rows) arrive as what JSON can carry.
    expectTypeOf<InferResponseType<(typeof client.api.v1.agent.threads)[":threadId"]["history"]["$get"], 200>>().toEqualTypeOf<
      JSONParsed<HistoryPage>
    >();
    expectTypeOf<InferResponseType<(typeof client.api.v1.agent.runs)[":runId"]["cancel"]["$post"], 202>>().toEqualTypeOf<
      z.output<typeof CancelRequested>
    >();
    expectTypeOf<InferResponseType<(typeof client.api.v1.agent.runs)[":runId"]["cancel"]["$post"], 404>>().toEqualTypeOf<
      JSONParsed<ErrorBody>
    >();
    expectTypeOf<InferResponseType<typeof client.api.v1.me.$get, 200>>().toEqualTypeOf<z.output<typeof Me>>();
    // And the run body is typed as what the run route takes.
    expectTypeOf<InferRequestType<typeof client.api.v1.agent.runs.$post>["json"]>().toEqualTypeOf<RunAgentInput>();
  });

  test("a typed call reads a thread's history and the thread list", async () => {
    const input = runInput("typed client");
    const { events } = await runAgentRequest({
      token: alice,
      input,
      script: { intent: { objective: "chat", requires_tool: false }, steps: [{ text: "Hello." }] },
    });
    expect(events.at(-1)?.type).toBe("RUN_FINISHED");

    const history = await client.api.v1.agent.threads[":threadId"].history.$get({ param: { threadId: input.threadId }, query: {} }, auth());
    expect(history.status).toBe(200);
    if (history.status !== 200) return;
    const page = await history.json();
    expect(page.thread.id).toBe(input.threadId);
    expect(page.messages.map((message) => message.role)).toEqual(["user", "assistant"]);

    const listed = await client.api.v1.agent.threads.$get({ query: { limit: "1" } }, auth());
    expect(listed.status).toBe(200);
    if (listed.status !== 200) return;
    expect((await listed.json()).threads.map((thread) => thread.id)).toEqual([input.threadId]);
  });

  test("a typed call gets the typed error of a run that does not exist", async () => {
    const response = await client.api.v1.agent.runs[":runId"].cancel.$post({ param: { runId: `missing-${crypto.randomUUID()}` } }, auth());
    expect(response.status).toBe(404);
    if (response.status !== 404) return;
    expect((await response.json()).error.code).toBe("NOT_FOUND");
  });
});
