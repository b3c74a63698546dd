// The playground's pure parts: what GET /playground/config tells a page, the local stand-in for
// Supabase Auth's password sign-in, and how a thread's history becomes the events that draw it.
import { importJWK, jwtVerify } from "jose";
import { describe, expect, test } from "vitest";
import { playgroundConfig } from "../../../functions/agent/routes/playground.ts";
import { historyTurns } from "../../../functions/playground/src/history-events.ts";
import { SEEDED_USERS } from "../../../supabase/local/auth-tokens.ts";
import { generateLocalKeys, publicJwk } from "../../../supabase/local/keys.ts";
import { LOCAL_PASSWORD, passwordSignIn } from "../../../supabase/local/password-sign-in.ts";

describe("playgroundConfig", () => {
  test("offers the local sign-in only when the data plane is on this machine", () => {
    for (const url of ["http://127.0.0.1:54321", "http://localhost:54321", "http://[::1]:54321"]) {
      expect(playgroundConfig({ supabaseUrl: url, playground: {} }).sign_in_url).toBe(`${url}/auth/v1/token?grant_type=password`);
    }
    for (const url of ["https://abc.supabase.co", "http://127.0.0.1.example.com", "http://10.0.0.5:54321"]) {
      expect(playgroundConfig({ supabaseUrl: url, playground: {} }).sign_in_url).toBeNull();
    }
  });

  test("passes the Tool Agent's URL on, or null", () => {
    expect(
      playgroundConfig({ supabaseUrl: "https://x.supabase.co", playground: { toolAgentUrl: "https://tools.example" } }).tool_agent_url,
    ).toBe("https://tools.example");
    expect(playgroundConfig({ supabaseUrl: "https://x.supabase.co", playground: {} }).tool_agent_url).toBeNull();
  });
});

describe("passwordSignIn (local stack)", () => {
  test("a seeded user with the local password gets a Supabase-shaped session whose token the local keys verify", async () => {
    const keys = await generateLocalKeys();
    const answer = await passwordSignIn(keys, { email: "Alice@Example.com ", password: LOCAL_PASSWORD });
    expect(answer.status).toBe(200);
    const body = answer.body as Record<string, unknown>;
    expect(body).toMatchObject({
      token_type: "bearer",
      expires_in: 3600,
      user: { id: SEEDED_USERS.alice.id, email: SEEDED_USERS.alice.email },
    });
    const { payload } = await jwtVerify(String(body.access_token), await importJWK(publicJwk(keys.authPrivateJwk), "ES256"), {
      audience: "authenticated",
    });
    expect(payload.sub).toBe(SEEDED_USERS.alice.id);
  });

  test("anyone else, a wrong password or a malformed body is refused the way Supabase Auth refuses", async () => {
    const keys = await generateLocalKeys();
    for (const body of [
      { email: "alice@example.com", password: "wrong" },
      { email: "mallory@example.com", password: LOCAL_PASSWORD },
      { email: "alice@example.com" },
      "not an object",
      null,
    ]) {
      const answer = await passwordSignIn(keys, body);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ error: "invalid_grant" });
      expect(JSON.stringify(answer.body)).not.toContain("access_token");
    }
  });
});

describe("historyTurns", () => {
  const history = [
    {
      id: "m1",
      role: "user",
      content: "What is on today?",
      metadata: {
        run_id: "r1",
        attachments: [
          { type: "image", url: "/api/v1/agent/runs/r1/images/0" },
          { type: "image", url: "https://evil.example/x.png" },
        ],
      },
    },
    {
      id: "a1",
      role: "assistant",
      toolCalls: [{ id: "c1", type: "function", function: { name: "project_cli", arguments: '{"module":"calendar"}' } }],
      metadata: { run_id: "r1" },
    },
    {
      id: "t1",
      role: "tool",
      toolCallId: "c1",
      content: "{}",
      metadata: { run_id: "r1", summary: "Found 0 events", ui_schema: { schema_version: 2 } },
    },
    { id: "a2", role: "assistant", content: "Nothing today.", metadata: { run_id: "r1" } },
    { id: "m2", role: "user", content: "Thanks", metadata: { run_id: "r2" } },
    { id: "a3", role: "assistant", content: "You're welcome.", metadata: { run_id: "r2" } },
  ];

  test("groups messages by run and turns them into the events a live run sends, in order", () => {
    const turns = historyTurns(history);
    expect(turns.map((turn) => turn.runId)).toEqual(["r1", "r2"]);
    expect(turns[0]!.events.map((event) => event.type)).toEqual([
      "TOOL_CALL_START",
      "TOOL_CALL_ARGS",
      "TOOL_CALL_END",
      "TOOL_CALL_RESULT",
      "TEXT_MESSAGE_START",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_END",
    ]);
    expect(turns[0]!.events[3]).toMatchObject({ toolCallId: "c1", metadata: { summary: "Found 0 events" } });
    expect(turns[1]!.user?.text).toBe("Thanks");
  });

  test("only the Worker's own image route is kept from what a stored row says", () => {
    expect(historyTurns(history)[0]!.user?.imageUrls).toEqual(["/api/v1/agent/runs/r1/images/0"]);
  });

  test("anything that is not a list of message objects draws nothing rather than failing", () => {
    for (const hostile of [null, "x", 42, { messages: [] }, [null, 1, "m", [], { role: "tool" }]]) {
      expect(() => historyTurns(hostile)).not.toThrow();
    }
    expect(historyTurns("x")).toEqual([]);
  });
});
