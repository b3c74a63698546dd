// Persistence and history replay: what a run streamed is what history gives back, cards
// included; storage failures degrade to the summary; nobody reads another user's records.
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { createApp } from "../../functions/agent/app.ts";
import { loadSettings } from "../../functions/agent/settings.ts";
import { createUserDatabase } from "../../functions/lib/user-database.ts";
import { SEEDED_USERS } from "../../supabase/local/auth-tokens.ts";
import { EventType, freshUser, ofType, parseSse, runAgentRequest, runInput, type ScriptedStep, tokenFor, verify } from "./support/agent.ts";

const JWT_LIKE = /eyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]*/;
const today = new Date().toISOString().slice(0, 10);
let alice: string;
let bob: string;
let guest: { id: string; phone: string; token: string };

beforeAll(async () => {
  [alice, bob] = await Promise.all([tokenFor(SEEDED_USERS.alice.id), tokenFor(SEEDED_USERS.bob.id)]);
  const user = await freshUser(); // shares go to a throwaway user, never to the seeded ones other tests rely on
  guest = { ...user, token: await tokenFor(user.id) };
});
afterEach(() => vi.restoreAllMocks());

const cli = (module: string, method: string, input: unknown): ScriptedStep => ({ tool: "project_cli", input: { module, method, input } });

async function run(
  token: string,
  steps: ScriptedStep[],
  options: { threadId?: string; env?: Record<string, unknown>; text?: string } = {},
) {
  const input = runInput(options.text ?? "please", options.threadId ? { threadId: options.threadId } : {});
  const result = await runAgentRequest({
    token,
    input,
    env: options.env,
    script: { intent: { objective: "do it", requires_tool: true }, steps: [...steps, { text: "All done." }] },
  });
  expect(result.events.at(-1)?.type).toBe(EventType.RUN_FINISHED);
  return { ...result, threadId: input.threadId };
}

/** The documented history path, and the two older ones it replaced (deprecated aliases). */
const HISTORY_PATHS = {
  threads: (threadId: string, query: string) => `/api/v1/agent/threads/${encodeURIComponent(threadId)}/history${query}`,
  runs: (threadId: string, query: string) => `/api/v1/agent/runs/${encodeURIComponent(threadId)}/history${query}`,
  query: (threadId: string, query: string) =>
    `/api/v1/agent/history?threadId=${encodeURIComponent(threadId)}${query ? `&${query.slice(1)}` : ""}`,
};

async function historyOf(
  token: string,
  threadId: string,
  query = "",
  bindings: Record<string, unknown> = {},
  path: keyof typeof HISTORY_PATHS = "threads",
) {
  const response = await createApp().request(
    HISTORY_PATHS[path](threadId, query),
    { headers: { authorization: `Bearer ${token}` } },
    { ...env, ...bindings },
  );
  return {
    status: response.status,
    body: (await response.json()) as { messages: Array<Record<string, any>>; next_before: number | null; thread: Record<string, unknown> },
  };
}

describe("failure cards", () => {
  const toolCards = (events: Awaited<ReturnType<typeof run>>["events"]) =>
    ofType(events, EventType.CUSTOM).filter((event) => event.name === "tool_card");

  test("a failure the model corrects in the same run shows no card, live or in history", async () => {
    const wrong = cli("calendar", "create", { title: "Standup", start: `${today}T09:00:00Z`, timezone: "UTC" });
    const right = cli("calendar", "create", { title: "Standup", start_at: `${today}T09:00:00Z`, timezone: "UTC" });
    const { events, threadId } = await run(alice, [wrong, right]);
    await verify(events);
    const [failed, created] = ofType(events, EventType.TOOL_CALL_RESULT);
    expect(failed!.metadata).toMatchObject({ status: "failure", ui_schema: null, card_deferred: true });
    expect(created!.metadata).toMatchObject({ status: "success", ui_schema: { card: "event_created" } });
    expect(toolCards(events)).toEqual([]);
    const replayed = (await historyOf(alice, threadId)).body.messages.filter((message) => message.role === "tool");
    expect(replayed.map((message) => message.metadata.ui_schema?.card ?? null)).toEqual([null, "event_created"]);
  });

  test("a failure that stands gets its card at the end of the run, in the person's words, and keeps it in history", async () => {
    const missing = cli("calendar", "update", { event_id: crypto.randomUUID(), patch: { title: "x" } });
    const { events, threadId } = await run(alice, [missing, cli("calendar", "read", { mode: "day", date: today, timezone: "UTC" })]);
    await verify(events);
    const [failed] = ofType(events, EventType.TOOL_CALL_RESULT);
    expect(failed!.metadata).toMatchObject({ ui_schema: null, card_deferred: true });
    const cards = toolCards(events);
    expect(cards).toHaveLength(1);
    expect(cards[0]!.value).toEqual({
      tool_call_id: failed!.toolCallId,
      message_id: failed!.messageId,
      ui_schema: {
        schema_version: 2,
        card: "action_failed",
        title: "Could not update the event",
        blocks: [{ type: "notice", tone: "error", text: expect.stringContaining("could not be found") }],
      },
    });
    // After the answer, before the run's end.
    expect(events.indexOf(cards[0]!)).toBe(events.length - 2);
    const replayed = (await historyOf(alice, threadId)).body.messages.filter((message) => message.role === "tool");
    expect(replayed[0]!.metadata.ui_schema).toEqual((cards[0]!.value as { ui_schema: unknown }).ui_schema);
  });
});

describe("two languages", () => {
  test("a zh run: summaries and cards in Chinese, live and in history alike", async () => {
    const input = runInput("今天有什么安排？", { forwardedProps: { timezone: "Asia/Shanghai", locale: "zh-CN" } });
    const { events } = await runAgentRequest({
      token: alice,
      input,
      script: {
        intent: { objective: "今天的日程", requires_tool: true },
        steps: [cli("calendar", "read", { mode: "day", date: today, timezone: "Asia/Shanghai" }), { text: "好的。" }],
      },
    });
    const live = ofType(events, EventType.TOOL_CALL_RESULT)[0]!.metadata as Record<string, any>;
    expect(live.summary).toMatch(new RegExp(`^${today} 有 \\d+ 个日程`));
    expect(live.ui_schema.title).toMatch(/个日程$|没有日程$/);
    const tool = (await historyOf(alice, input.threadId)).body.messages.find((message) => message.role === "tool")!;
    expect(tool.metadata.summary).toBe(live.summary);
    expect(tool.metadata.ui_schema).toEqual(live.ui_schema);
  });

  test("Accept-Language zh without a forwarded locale: the offline demo model answers in Chinese", async () => {
    const input = runInput("今天有什么安排？");
    const response = await createApp().request(
      "/api/v1/agent/runs",
      {
        method: "POST",
        headers: { authorization: `Bearer ${alice}`, "content-type": "application/json", "accept-language": "zh-CN,zh;q=0.9,en;q=0.8" },
        body: JSON.stringify(input),
      },
      env,
    );
    const events = parseSse(await response.text());
    const answer = ofType(events, EventType.TEXT_MESSAGE_CONTENT)
      .map((event) => event.delta)
      .join("");
    expect(answer).toContain("[离线演示模型]");
    expect(answer).toMatch(/个日程|没有安排/);
    expect((ofType(events, EventType.TOOL_CALL_RESULT).at(-1)!.metadata as Record<string, any>).summary).toMatch(/个日程/);
  });
});

describe("live card == history card", () => {
  test("for every action that has a card, content and ui_schema replay exactly", async () => {
    // Alice creates, reads, updates and shares events; a guest accepts one invitation and declines another; contacts and memory too.
    const created = await run(alice, [
      cli("calendar", "create", { title: "Replay check", start_at: `${today}T15:00:00Z`, end_at: `${today}T16:00:00Z`, timezone: "UTC" }),
    ]);
    const eventId = JSON.parse(ofType(created.events, EventType.TOOL_CALL_RESULT)[0]!.content as string).data.event.id as string;
    const second = await run(alice, [
      cli("calendar", "create", { title: "Declined later", start_at: `${today}T17:00:00Z`, timezone: "UTC" }),
    ]);
    const secondId = JSON.parse(ofType(second.events, EventType.TOOL_CALL_RESULT)[0]!.content as string).data.event.id as string;
    const aliceRun = await run(alice, [
      cli("calendar", "read", { mode: "day", date: today, timezone: "UTC" }),
      cli("calendar", "read", { mode: "event", event_id: eventId }),
      cli("calendar", "update", { event_id: eventId, patch: { title: "Replay check (moved)" } }),
      cli("calendar", "share", { event_id: eventId, invitee: { phone: guest.phone }, permissions: { view: true } }),
      cli("calendar", "share", { event_id: secondId, invitee: { user_id: guest.id }, permissions: { view: true } }),
      cli("contacts", "read", { name: "Bob" }),
      cli("memory", "update", { kind: "user_memory", content: { preferences: ["Replay tests"] } }),
    ]);
    const guestRun = await run(guest.token, [
      cli("calendar", "invitations", {}),
      cli("calendar", "accept_invite", { event_id: eventId }),
      cli("calendar", "reject_invite", { event_id: secondId }),
    ]);
    const deleteRun = await run(alice, [
      cli("calendar", "delete", { event_id: secondId }),
      cli("calendar", "read", { mode: "event", event_id: "not-a-uuid" }),
    ]);

    for (const { token, events, threadId } of [
      { token: alice, ...created },
      { token: alice, ...aliceRun },
      { token: guest.token, ...guestRun },
      { token: alice, ...deleteRun },
    ]) {
      const live = ofType(events, EventType.TOOL_CALL_RESULT);
      // A failure's card comes at the end of the run, as a tool_card event naming its message.
      const deferredCards = new Map(
        ofType(events, EventType.CUSTOM)
          .filter((event) => event.name === "tool_card")
          .map((event) => {
            const value = event.value as { message_id: string; ui_schema: unknown };
            return [value.message_id, value.ui_schema] as const;
          }),
      );
      const liveCard = (result: (typeof live)[number]) => {
        const metadata = result.metadata as Record<string, unknown>;
        return metadata.card_deferred === true ? deferredCards.get(result.messageId as string) : metadata.ui_schema;
      };
      const { status, body } = await historyOf(token, threadId);
      expect(status).toBe(200);
      const replayed = body.messages.filter((message) => message.role === "tool");
      expect(replayed).toHaveLength(live.length);
      replayed.forEach((message, i) => {
        expect(message.id).toBe(live[i]!.messageId);
        expect(message.toolCallId).toBe(live[i]!.toolCallId);
        expect(message.content).toBe(live[i]!.content);
        expect(message.metadata.ui_schema).toEqual(liveCard(live[i]!));
        expect(message.metadata.summary).toBe((live[i]!.metadata as Record<string, unknown>).summary);
        expect(message.metadata.payload_available).toBe(true);
      });
      const cards = replayed.map((message) => message.metadata.ui_schema?.card).filter(Boolean);
      expect(cards.length).toBeGreaterThan(0);
    }
    const allCards = new Set<string>();
    for (const { token, threadId } of [
      { token: alice, ...aliceRun },
      { token: guest.token, ...guestRun },
      { token: alice, ...deleteRun },
      { token: alice, ...created },
    ]) {
      for (const message of (await historyOf(token, threadId)).body.messages)
        if (message.metadata?.ui_schema?.card) allCards.add(message.metadata.ui_schema.card);
    }
    expect([...allCards].sort()).toEqual([
      "action_failed",
      "contact_list",
      "event_created",
      "event_deleted",
      "event_detail",
      "event_list",
      "event_shared",
      "event_updated",
      "invitation_answered",
      "invitation_list",
      "memory_updated",
    ]);
  });

  test("history carries the user message, tool calls and the streamed answer, in order", async () => {
    const { threadId, events } = await run(alice, [cli("calendar", "read", { mode: "day", date: today, timezone: "UTC" })], {
      text: "What's on today?",
    });
    const { body } = await historyOf(alice, threadId);
    expect(body.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(body.messages[0]).toMatchObject({ content: "What's on today?", metadata: { attachments: [] } });
    expect(body.messages[1]!.toolCalls[0]).toMatchObject({
      function: { name: "project_cli", arguments: expect.stringContaining('"mode":"day"') },
    });
    expect(body.messages[3]!.content).toBe(
      ofType(events, EventType.TEXT_MESSAGE_CONTENT)
        .map((event) => event.delta)
        .join(""),
    );
  });
});

describe("storage and database faults", () => {
  test("payload store down: the run succeeds, history falls back to the summary and keeps the card", async () => {
    const broken = { put: async () => Promise.reject(new Error("R2 down")), get: async () => Promise.reject(new Error("R2 down")) };
    const { threadId, events } = await run(alice, [cli("calendar", "read", { mode: "day", date: today, timezone: "UTC" })], {
      env: { PAYLOADS: broken },
    });
    const live = ofType(events, EventType.TOOL_CALL_RESULT)[0]!;
    const { body } = await historyOf(alice, threadId);
    const tool = body.messages.find((message) => message.role === "tool")!;
    expect(tool.content).toBe((live.metadata as Record<string, unknown>).summary);
    expect(tool.metadata).toMatchObject({ payload_available: false, ui_schema: (live.metadata as Record<string, unknown>).ui_schema });
  });

  test("payload present but unreadable later: the same fallback", async () => {
    const { threadId } = await run(alice, [cli("contacts", "read", {})]);
    const { body } = await historyOf(alice, threadId, "", { PAYLOADS: { get: async () => Promise.reject(new Error("R2 down")) } });
    expect(body.messages.find((message) => message.role === "tool")!.metadata.payload_available).toBe(false);
  });
});

describe("pagination and threads", () => {
  test("limit and before walk the thread backwards without gaps or repeats", async () => {
    const threadId = `paged-${crypto.randomUUID()}`;
    for (let i = 0; i < 3; i++) await run(alice, [cli("memory", "read", {})], { threadId, text: `turn ${i}` });
    const all = (await historyOf(alice, threadId)).body.messages;
    expect(all.filter((message) => message.role === "user").map((message) => message.content)).toEqual(["turn 0", "turn 1", "turn 2"]);
    const seen: string[] = [];
    let before: number | null | undefined;
    do {
      const page = await historyOf(alice, threadId, `?limit=3${before ? `&before=${before}` : ""}`);
      seen.unshift(...page.body.messages.map((message) => message.id));
      before = page.body.next_before;
    } while (before);
    expect(seen).toEqual(all.map((message) => message.id));
    expect((await historyOf(alice, threadId, "?limit=0")).status).toBe(400);
  });

  test("threads are listed newest first", async () => {
    const older = await run(alice, [cli("memory", "read", {})], { text: "older thread" });
    const newer = await run(alice, [cli("memory", "read", {})], { text: "newer thread" });
    const response = await createApp().request("/api/v1/agent/threads?limit=2", { headers: { authorization: `Bearer ${alice}` } }, env);
    const { threads } = (await response.json()) as { threads: Array<{ id: string; title: string }> };
    expect(threads.map((thread) => thread.id)).toEqual([newer.threadId, older.threadId]);
    expect(threads[0]!.title).toBe("newer thread");
  });

  test("the deprecated history paths give exactly the answer of the threads path: pages, cursors and refusals", async () => {
    const threadId = `aliases-${crypto.randomUUID()}`;
    for (let i = 0; i < 2; i++) await run(alice, [cli("memory", "read", {})], { threadId, text: `turn ${i}` });
    // The request id differs per request, and a message says where the value was (path or
    // query parameter); everything else must not differ.
    const answer = async (path: keyof typeof HISTORY_PATHS, token: string, id: string, query: string) => {
      const { status, body } = await historyOf(token, id, query, {}, path);
      const error = (body as { error?: { message: string } }).error;
      if (!error) return { status, body };
      return { status, body: { error: { ...error, request_id: "(per request)", message: error.message.replace(/^(path|query) /, "") } } };
    };
    const cases: Array<[string, string, string, number, Record<string, unknown>]> = [
      [alice, threadId, "", 200, { next_before: null }],
      [alice, threadId, "?limit=2", 200, { next_before: 5 }],
      [alice, threadId, "?limit=2&before=5", 200, { next_before: 3 }],
      [alice, threadId, "?limit=0", 400, { error: { code: "INVALID_REQUEST", field: "limit" } }],
      [alice, threadId, "?before=x", 400, { error: { code: "INVALID_REQUEST", field: "before" } }],
      [alice, threadId, "?limit=2&limit=3", 400, { error: { code: "INVALID_REQUEST", field: "limit" } }], // one value, not a list
      [bob, threadId, "", 404, { error: { code: "NOT_FOUND" } }], // not Bob's thread
      [alice, "x".repeat(129), "", 400, { error: { code: "INVALID_REQUEST", field: "threadId" } }],
    ];
    for (const [token, id, query, status, shape] of cases) {
      const documented = await answer("threads", token, id, query);
      expect(documented, query).toMatchObject({ status, body: shape });
      expect(await answer("runs", token, id, query), `runs path ${query}`).toEqual(documented);
      expect(await answer("query", token, id, query), `query path ${query}`).toEqual(documented);
    }
  });
});

describe("isolation and secrets", () => {
  test("another user cannot read a thread's history or see it listed, also by guessing its id", async () => {
    const { threadId } = await run(alice, [cli("memory", "read", {})], { text: "private" });
    expect(await historyOf(bob, threadId)).toMatchObject({ status: 404, body: { error: { code: "NOT_FOUND" } } });
    expect(await historyOf(bob, "thread-that-never-existed")).toMatchObject({ status: 404 });
    const listed = await createApp().request("/api/v1/agent/threads?limit=100", { headers: { authorization: `Bearer ${bob}` } }, env);
    expect(JSON.stringify(await listed.json())).not.toContain(threadId);
  });

  test("the same thread id used by two users stays two threads", async () => {
    const threadId = `shared-name-${crypto.randomUUID()}`;
    await run(alice, [cli("memory", "read", {})], { threadId, text: "alice's words" });
    await run(bob, [cli("memory", "read", {})], { threadId, text: "bob's words" });
    const contents = (token: string) =>
      historyOf(token, threadId).then(({ body }) => body.messages.filter((m) => m.role === "user").map((m) => m.content));
    expect(await contents(alice)).toEqual(["alice's words"]);
    expect(await contents(bob)).toEqual(["bob's words"]);
  });

  test("no token or credential is stored in any row or payload", async () => {
    const { threadId } = await run(alice, [cli("calendar", "read", { mode: "day", date: today, timezone: "UTC" })]);
    const { body } = await historyOf(alice, threadId);
    expect(JSON.stringify(body)).not.toMatch(JWT_LIKE);
    const listing = await env.PAYLOADS.list({ prefix: `tool-payloads/${SEEDED_USERS.alice.id}/` });
    expect(listing.objects.length).toBeGreaterThan(0);
    for (const object of listing.objects.slice(-20)) {
      const stored = await env.PAYLOADS.get(object.key);
      expect(await stored!.text()).not.toMatch(JWT_LIKE);
    }
  });
});

/** supabase-js as `userId` with a Worker-minted credential: what a user can do with its own token through PostgREST. */
async function databaseAs(userId: string) {
  const settings = loadSettings(env);
  if (!settings.ok) throw new Error("test env is misconfigured");
  return createUserDatabase(settings.settings, userId);
}

describe("rows a user shaped never lead elsewhere", () => {
  test("a forged tool message naming another user's payload (its path, run id, tool call and message ids) replays only its own summary", async () => {
    const bobRun = await run(bob, [cli("memory", "read", {})], { text: "bob's memory" });
    const bobDb = await databaseAs(SEEDED_USERS.bob.id);
    const { data: bobRows } = await bobDb
      .from("messages")
      .select("run_id, content, metadata")
      .eq("thread_id", bobRun.threadId)
      .eq("role", "tool");
    const bobTool = bobRows![0]!;
    const bobPayload = ofType(bobRun.events, EventType.TOOL_CALL_RESULT)[0]!.content as string;
    expect((bobTool.metadata as Record<string, unknown>).storage_path).toMatch(/^tool-payloads\//);

    // Alice records a run under Bob's very run id (ids are per user) and plants Bob's metadata.
    const aliceDb = await databaseAs(SEEDED_USERS.alice.id);
    const threadId = `forged-${crypto.randomUUID()}`;
    expect(
      (
        await aliceDb.rpc("record_run_start", {
          p_thread_id: threadId,
          p_run_id: bobTool.run_id,
          p_title: "x",
          p_models: {},
          p_user_content: "x",
          p_user_metadata: {},
        })
      ).error,
    ).toBeNull();
    const forged = { role: "tool", content: "forged summary", metadata: { ...(bobTool.metadata as object), payload_missing: false } };
    expect(
      (
        await aliceDb.rpc("record_run_finish", {
          p_run_id: bobTool.run_id,
          p_status: "succeeded",
          p_error_code: null,
          p_step_count: 1,
          p_usage: {},
          p_stage_timings: {},
          p_messages: [forged],
        })
      ).error,
    ).toBeNull();

    const { status, body } = await historyOf(alice, threadId);
    expect(status).toBe(200);
    const tool = body.messages.find((message) => message.role === "tool")!;
    expect(tool.content).toBe("forged summary");
    expect(tool.metadata.payload_available).toBe(false);
    expect(JSON.stringify(body)).not.toContain(bobPayload);
    // Bob's own history still has his payload (control).
    expect((await historyOf(bob, bobRun.threadId)).body.messages.find((message) => message.role === "tool")!.content).toBe(bobPayload);
  });

  test("card hints shaped by hand replay without a card instead of failing the page", async () => {
    const aliceDb = await databaseAs(SEEDED_USERS.alice.id);
    const threadId = `hints-${crypto.randomUUID()}`;
    const runId = `r-${crypto.randomUUID()}`;
    await aliceDb.rpc("record_run_start", {
      p_thread_id: threadId,
      p_run_id: runId,
      p_title: "x",
      p_models: {},
      p_user_content: "x",
      p_user_metadata: {},
    });
    const hostile = [{ kind: "event_list" }, { kind: "constructor" }, "card", { kind: "event_detail", event: null }];
    const messages = hostile.map((ui_hints) => ({
      role: "tool",
      content: "summary",
      metadata: { ui_hints, message_id: crypto.randomUUID(), tool_call_id: "c" },
    }));
    expect(
      (
        await aliceDb.rpc("record_run_finish", {
          p_run_id: runId,
          p_status: "succeeded",
          p_error_code: null,
          p_step_count: 1,
          p_usage: {},
          p_stage_timings: {},
          p_messages: messages,
        })
      ).error,
    ).toBeNull();
    const { status, body } = await historyOf(alice, threadId);
    expect(status).toBe(200);
    const tools = body.messages.filter((message) => message.role === "tool");
    expect(tools.map((message) => message.metadata.ui_schema)).toEqual([null, null, null, null]);
  });

  test("a run id the user already recorded through PostgREST ends the run with CONFLICT, not DATABASE_UNAVAILABLE", async () => {
    const runId = `prerecorded-${crypto.randomUUID()}`;
    const aliceDb = await databaseAs(SEEDED_USERS.alice.id);
    expect(
      (
        await aliceDb.rpc("record_run_start", {
          p_thread_id: `t-${crypto.randomUUID()}`,
          p_run_id: runId,
          p_title: "x",
          p_models: {},
          p_user_content: "x",
          p_user_metadata: {},
        })
      ).error,
    ).toBeNull();
    const { events } = await runAgentRequest({
      token: alice,
      input: runInput("hi", { runId }),
      script: { intent: { objective: "x", requires_tool: false }, steps: [{ text: "hi" }] },
    });
    expect(events.at(-1)).toMatchObject({ type: EventType.RUN_ERROR, code: "CONFLICT" });
    // The run already recorded under that id is another run: the refused one does not finish it.
    const { data } = await aliceDb.from("runs").select("status, error_code").eq("id", runId).single();
    expect(data).toEqual({ status: "running", error_code: null });
  });
});

describe("paging reveals nothing of other users", () => {
  test("positions (metadata.seq, next_before) are 1..n in the thread, whatever others write in between", async () => {
    const threadId = `interleaved-${crypto.randomUUID()}`;
    for (let i = 0; i < 3; i++) {
      await run(alice, [cli("memory", "read", {})], { threadId, text: `turn ${i}` });
      await run(bob, [cli("memory", "read", {}), cli("memory", "read", {})], { text: "bob is busy" });
    }
    const all = (await historyOf(alice, threadId)).body.messages;
    // user, tool call + tool result (one row), answer: three rows per run.
    expect([...new Set(all.map((message) => message.metadata.seq))]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const page = await historyOf(alice, threadId, "?limit=4");
    expect(page.body.next_before).toBe(6);
    const older = await historyOf(alice, threadId, "?limit=4&before=6");
    expect([...new Set(older.body.messages.map((message) => message.metadata.seq))]).toEqual([2, 3, 4, 5]);
  });
});

describe("threads across runs", () => {
  test("the next run's intent stage sees the earlier turns, summarised", async () => {
    const threadId = `memory-${crypto.randomUUID()}`;
    await run(alice, [cli("calendar", "read", { mode: "day", date: today, timezone: "UTC" })], { threadId, text: "What's on today?" });
    const second = await run(alice, [], { threadId, text: "And tomorrow?" });
    const prompt = JSON.stringify(second.intent.doStreamCalls[0]!.prompt);
    expect(prompt).toContain("What's on today?");
    expect(prompt).toContain("(tool) Found");
    expect(prompt).toContain("And tomorrow?");
  });

  test("a run makes two database round trips besides its tool calls", async () => {
    const fetches = vi.spyOn(globalThis, "fetch");
    await run(alice, [cli("memory", "read", {})]);
    const database = fetches.mock.calls
      .map(([input]) => String(input instanceof Request ? input.url : input))
      .filter((url) => url.includes("/rest/v1/"));
    // record_run_start (which also returns earlier turns), memory.read (the tool), record_run_finish
    expect(database).toHaveLength(3);
    expect(database.filter((url) => url.includes("/rpc/record_run_"))).toHaveLength(2);
  });
});
