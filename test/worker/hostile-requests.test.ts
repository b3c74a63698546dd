// Hostile run requests inside workerd, against the real data plane: what the database would
// refuse is a 400 naming the field (not DATABASE_UNAVAILABLE on a healthy stack), blank
// resume cursors are refused, and every response, streams included, carries the request id.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, test } from "vitest";
import { createApp } from "../../functions/agent/app.ts";
import { SEEDED_USERS } from "../../supabase/local/auth-tokens.ts";
import { runInput, type Script, scriptedModels, tokenFor } from "./support/agent.ts";

let alice: string;
beforeAll(async () => {
  alice = await tokenFor(SEEDED_USERS.alice.id);
});

const answerOnly = (): Script => ({ intent: { objective: "chat", requires_tool: false }, steps: [{ text: "Hello." }] });

function app(script: Script = answerOnly()) {
  const { models } = scriptedModels(script);
  return createApp({ models: () => models });
}

async function post(body: string, headers: Record<string, string> = {}) {
  const response = await app().request(
    "/api/v1/agent/runs",
    { method: "POST", headers: { authorization: `Bearer ${alice}`, "content-type": "application/json", ...headers }, body },
    env,
  );
  return { response, text: await response.text() };
}

const withUserMessage = (content: unknown, overrides: Record<string, unknown> = {}) =>
  runInput("x", { messages: [{ id: crypto.randomUUID(), role: "user", content }], ...overrides });

describe("values the database would refuse are a 400 naming the field", () => {
  const cases: Array<[string, unknown, string]> = [
    ["a NUL in the message text", withUserMessage("hello\u0000world"), "messages.0.content"],
    ["a lone surrogate in the message text", withUserMessage("hello \uD83D"), "messages.0.content"],
    ["a NUL in the threadId", runInput("hi", { threadId: "t\u0000" }), "threadId"],
    ["a lone surrogate in the runId", runInput("hi", { runId: "r\uDC00" }), "runId"],
    ["a NUL in the message id", runInput("hi", { messages: [{ id: "m\u0000", role: "user", content: "hi" }] }), "messages.0.id"],
    ["a NUL in forwardedProps.timezone", runInput("hi", { forwardedProps: { timezone: "UTC\u0000" } }), "forwardedProps.timezone"],
    ["a NUL in a text part", withUserMessage([{ type: "text", text: "a\u0000" }]), "messages.0.content.0.text"],
    [
      "a NUL in an earlier message",
      runInput("hi", {
        messages: [
          { id: "a", role: "assistant", content: "x\u0000" },
          { id: "b", role: "user", content: "hi" },
        ],
      }),
      "messages.0.content",
    ],
    [
      "an unparsable image URL",
      withUserMessage([{ type: "image", source: { type: "url", value: "https://" } }]),
      "messages.0.content.0.source.value",
    ],
    [
      "an image URL with a space in the host",
      withUserMessage([{ type: "image", source: { type: "url", value: "https://exa mple.com/a.png" } }]),
      "messages.0.content.0.source.value",
    ],
  ];
  test.each(cases)("%s", async (_label, input, field) => {
    const { response, text } = await post(JSON.stringify(input));
    expect(response.status, text).toBe(400);
    const body = JSON.parse(text);
    expect(body.error).toMatchObject({ code: "INVALID_REQUEST", field, request_id: response.headers.get("x-request-id") });
  });

  test("a message cut at the turn limit never splits an emoji: the run is recorded, not DATABASE_UNAVAILABLE", async () => {
    const { response, text } = await post(JSON.stringify(runInput(`${"a".repeat(199)}😀 and more`)));
    expect(response.status).toBe(200);
    expect(text).toContain("RUN_FINISHED");
    expect(text).not.toContain("DATABASE_UNAVAILABLE");
  });

  test("a body that is not JSON is a 400", async () => {
    const { response, text } = await post("{not json");
    expect(response.status).toBe(400);
    expect(JSON.parse(text).error).toMatchObject({ code: "INVALID_REQUEST", field: "(body)" });
  });
});

describe("resume cursors", () => {
  async function startedRun() {
    const input = runInput("hi");
    const { response, text } = await post(JSON.stringify(input));
    expect(response.status).toBe(200);
    expect(text).toContain("RUN_FINISHED");
    return input.runId;
  }
  const resume = (runId: string, query: string, headers: Record<string, string> = {}) =>
    app().request(
      `/api/v1/agent/runs/${encodeURIComponent(runId)}/events${query}`,
      { headers: { authorization: `Bearer ${alice}`, ...headers } },
      env,
    );

  test.each([
    ["?after=", {}, "after"],
    ["?after=%20", {}, "after"],
    ["?after=0x1", {}, "after"],
    ["?after=1e1", {}, "after"],
    ["", { "last-event-id": "" }, "Last-Event-ID"],
    ["", { "last-event-id": "   " }, "Last-Event-ID"],
  ] as Array<[string, Record<string, string>, string]>)("%s %j is a 400 naming %s", async (query, headers, field) => {
    const runId = await startedRun();
    const response = await resume(runId, query, headers);
    expect(response.status).toBe(400);
    expect((await response.json<{ error: unknown }>()).error).toMatchObject({ code: "INVALID_REQUEST", field });
  });

  test("a run id in the path that no body could carry is a 400, not a lookup", async () => {
    for (const runId of ["a\u0000b", "x".repeat(129)]) {
      const response = await resume(runId, "");
      expect(response.status).toBe(400);
      expect((await response.json<{ error: unknown }>()).error).toMatchObject({ code: "INVALID_REQUEST", field: "runId" });
    }
  });
});

describe("every response carries the request id", () => {
  const UUID = /^[0-9a-f-]{36}$/;
  test("a run's event stream", async () => {
    const { response } = await post(JSON.stringify(runInput("hi")));
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    expect(response.headers.get("x-request-id")).toMatch(UUID);
  });

  test("a resumed stream, echoing a well-formed id the caller sent", async () => {
    const input = runInput("hi");
    await post(JSON.stringify(input));
    const response = await app().request(
      `/api/v1/agent/runs/${input.runId}/events?after=-1`,
      { headers: { authorization: `Bearer ${alice}`, "x-request-id": "client-abc-123" } },
      env,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toBe("client-abc-123");
    await response.text();
  });

  test.each([
    ["401 without a token", "/api/v1/agent/runs", { method: "POST" }, 401],
    ["404 for no route", "/api/v1/nothing-here", { headers: { authorization: "Bearer x" } }, 401],
    ["404 for an unknown run", "/api/v1/agent/runs/no-such-run/events", {}, 404],
  ] as Array<[string, string, RequestInit, number]>)("%s: header and error.request_id agree", async (_label, path, init, status) => {
    const headers = new Headers(init.headers);
    if (status === 404) headers.set("authorization", `Bearer ${alice}`);
    const response = await app().request(path, { ...init, headers }, env);
    expect(response.status).toBe(status);
    const id = response.headers.get("x-request-id");
    expect(id).toMatch(UUID);
    expect((await response.json<{ error: { request_id: string } }>()).error.request_id).toBe(id);
  });

  test("health answers carry it too", async () => {
    const response = await app().request("/health", {}, env);
    expect(response.headers.get("x-request-id")).toMatch(UUID);
  });
});
