// Isolation of stored records on `wrangler dev` with its own data plane, as an attacker holding
// only its own token would try it: the Worker's data-plane credential is no app token, and a
// tool message forged through PostgREST (the user's own credential) to point at another user's
// payload replays only its own summary.
import { afterAll, beforeAll, expect, test } from "vitest";
import { importCredentialSigner, mintCredential } from "../../functions/lib/auth/credential.ts";
import { SEEDED_USERS } from "../../supabase/local/auth-tokens.ts";
import { startWranglerDev, type WranglerDev } from "../support/wrangler-dev.ts";

let wd: WranglerDev;

beforeAll(async () => {
  wd = await startWranglerDev();
}, 60_000);
afterAll(async () => wd?.stop());

const credential = async (userId: string, signing: "ES256" | "HS256") =>
  (
    await mintCredential(
      userId,
      await importCredentialSigner(
        signing === "ES256"
          ? { ttlSeconds: 300, signingJwk: wd.keys.credentialPrivateJwk as never }
          : { ttlSeconds: 300, legacySecret: wd.keys.legacySecret },
      ),
      { ttlSeconds: 300, audience: "authenticated" },
    )
  ).token;

/** PostgREST as `userId`, with the user's own (Worker-shaped) credential. */
async function rest(userId: string, path: string, init: RequestInit = {}) {
  const response = await fetch(`${wd.plane.url}/rest/v1/${path}`, {
    ...init,
    headers: {
      apikey: wd.plane.anonKey,
      authorization: `Bearer ${await credential(userId, "ES256")}`,
      "content-type": "application/json",
      ...init.headers,
    },
  });
  return { status: response.status, body: (await response.json().catch(() => null)) as unknown };
}

test.each(["ES256", "HS256"] as const)(
  "a %s controlled credential sent to the Worker as a bearer token: 401 credential_not_accepted",
  async (signing) => {
    const response = await fetch(`${wd.url}/api/v1/me`, {
      headers: { authorization: `Bearer ${await credential(SEEDED_USERS.alice.id, signing)}` },
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: "UNAUTHENTICATED", reason: "credential_not_accepted" } });
  },
);

test("a forged tool message pointing at another user's payload replays only its own summary", async () => {
  // Bob's run (the offline demo model reads his calendar): a tool message with a payload in R2.
  const threadId = `bob-${crypto.randomUUID()}`;
  const started = await fetch(`${wd.url}/api/v1/agent/runs`, {
    method: "POST",
    headers: { authorization: `Bearer ${await wd.token("bob")}`, "content-type": "application/json" },
    body: JSON.stringify({
      threadId,
      runId: `r-${crypto.randomUUID()}`,
      messages: [{ id: "m1", role: "user", content: "What is on my calendar today?" }],
      state: {},
      tools: [],
      context: [],
      forwardedProps: { timezone: "UTC" },
    }),
  });
  expect(await started.text()).toContain("RUN_FINISHED");
  const bobHistory = (await (
    await fetch(`${wd.url}/api/v1/agent/threads/${threadId}/history`, { headers: { authorization: `Bearer ${await wd.token("bob")}` } })
  ).json()) as { messages: Array<{ role: string; content: string; metadata: Record<string, unknown> }> };
  const bobTool = bobHistory.messages.find((message) => message.role === "tool")!;
  expect(bobTool.metadata.payload_available).toBe(true);
  const rows = (await rest(SEEDED_USERS.bob.id, `messages?thread_id=eq.${threadId}&role=eq.tool&select=run_id,metadata`)).body as Array<{
    run_id: string;
    metadata: Record<string, unknown>;
  }>;

  // Alice cannot write the table directly, and the functions take her run only.
  const alice = SEEDED_USERS.alice.id;
  expect(
    (await rest(alice, "messages", { method: "POST", body: JSON.stringify({ thread_id: threadId, role: "tool", content: "x" }) })).status,
  ).toBe(403);
  const forgedThread = `forged-${crypto.randomUUID()}`;
  const runId = rows[0]!.run_id; // the same run id as Bob's: ids are per user
  expect(
    (
      await rest(alice, "rpc/record_run_start", {
        method: "POST",
        body: JSON.stringify({
          p_thread_id: forgedThread,
          p_run_id: runId,
          p_title: "x",
          p_models: {},
          p_user_content: "x",
          p_user_metadata: {},
        }),
      })
    ).status,
  ).toBe(200);
  const finished = await rest(alice, "rpc/record_run_finish", {
    method: "POST",
    body: JSON.stringify({
      p_run_id: runId,
      p_status: "succeeded",
      p_error_code: null,
      p_step_count: 1,
      p_usage: {},
      p_stage_timings: {},
      p_messages: [{ role: "tool", content: "forged summary", metadata: rows[0]!.metadata }],
    }),
  });
  expect(finished.status).toBeLessThan(300);

  const history = (await (
    await fetch(`${wd.url}/api/v1/agent/threads/${forgedThread}/history`, {
      headers: { authorization: `Bearer ${await wd.token("alice")}` },
    })
  ).json()) as typeof bobHistory;
  const tool = history.messages.find((message) => message.role === "tool")!;
  expect(tool).toMatchObject({ content: "forged summary", metadata: { payload_available: false } });
  expect(JSON.stringify(history)).not.toContain(bobTool.content);

  // Finishing a run she does not have: a 4xx with a stable code, never a 500.
  const again = await rest(alice, "rpc/record_run_finish", {
    method: "POST",
    body: JSON.stringify({
      p_run_id: `nobody-${crypto.randomUUID()}`,
      p_status: "failed",
      p_error_code: null,
      p_step_count: 0,
      p_usage: {},
      p_stage_timings: {},
      p_messages: [],
    }),
  });
  expect(again).toMatchObject({ status: 404, body: { code: "PT404", message: "RUN_NOT_FOUND" } });
});
