// The agent's records through PostgREST with the user's OWN credential, as a hostile user
// would write them: no direct write to threads, runs or messages is accepted; the recording
// functions refuse foreign ids and malformed values with a 4xx and a stable code, never a 5xx;
// and message positions count one thread only, so they reveal nothing of other users.
import { beforeAll, describe, expect, test } from "vitest";
import { finishRun, startRun } from "../support/records.ts";
import { clientAs, createUser, superuser } from "../support/users.ts";

type Row = Record<string, unknown>;
const sql = <T extends Row>(text: string, values: unknown[]) => superuser(async (db) => (await db.query<T>(text, values)).rows);

const positionsOf = async (owner: string, threadId: string) =>
  (
    await sql<{ position: string }>("select position from messages where owner_id = $1 and thread_id = $2 order by position", [
      owner,
      threadId,
    ])
  ).map((row) => Number(row.position));

let owner: string;
let other: string;
let thread: string;
let run: string;

beforeAll(async () => {
  [owner, other] = await Promise.all([createUser("owner"), createUser("other")]);
  thread = `thread-${crypto.randomUUID()}`;
  run = `run-${crypto.randomUUID()}`;
  expect((await startRun(owner, thread, run)).error).toBeNull();
  expect((await finishRun(owner, run)).error).toBeNull();
});

describe("no direct writes to the records, not even to the user's own rows", () => {
  const own = () => ({
    threads: { filter: { id: thread }, insert: { id: `forged-${crypto.randomUUID()}` }, patch: { title: "renamed" } },
    runs: { filter: { id: run }, insert: { id: `forged-${crypto.randomUUID()}`, thread_id: thread }, patch: { status: "running" } },
    messages: {
      filter: { thread_id: thread, role: "user" },
      insert: {
        thread_id: thread,
        run_id: run,
        position: 99,
        role: "tool",
        content: "forged",
        metadata: { storage_path: `tool-payloads/${other}/r/c.json` },
      },
      patch: { metadata: { storage_path: `tool-payloads/${other}/r/c.json` } },
    },
  });

  test.each(["threads", "runs", "messages"] as const)("%s: insert, update and delete are refused and change nothing", async (table) => {
    const { filter, insert, patch }: { filter: Row; insert: Row; patch: Row } = own()[table];
    const db = await clientAs(owner);
    const snapshot = () => sql(`select to_jsonb(t) as row from ${table} t where owner_id = $1 order by 1`, [owner]);
    const before = await snapshot();

    const inserted = await db.from(table).insert(insert).select();
    expect(inserted.error?.code).toBe("42501");
    const updated = await db.from(table).update(patch).match(filter).select();
    expect(updated.error?.code).toBe("42501");
    const deleted = await db.from(table).delete().match(filter).select();
    expect(deleted.error?.code).toBe("42501");

    expect(await snapshot()).toEqual(before);
    // Reading stays allowed (control).
    expect((await db.from(table).select("*").match(filter)).data?.length).toBeGreaterThan(0);
  });
});

describe("the recording functions trust no id they are given", () => {
  test("finishing another user's run answers 404 RUN_NOT_FOUND and changes nothing of it", async () => {
    const victimRun = `victim-run-${crypto.randomUUID()}`;
    expect((await startRun(other, `victim-thread-${crypto.randomUUID()}`, victimRun)).error).toBeNull();
    const answer = await finishRun(owner, victimRun, { p_status: "failed" });
    expect(answer.status).toBe(404);
    expect(answer.error).toMatchObject({ code: "PT404", message: "RUN_NOT_FOUND" });
    const [victim] = await sql<{ status: string }>("select status from runs where owner_id = $1 and id = $2", [other, victimRun]);
    expect(victim!.status).toBe("running");
    expect(await sql("select 1 from messages where owner_id = $1 and run_id = $2", [owner, victimRun])).toEqual([]);
  });

  test("starting a run in another user's thread id makes the caller's own thread; the victim's stays as it was", async () => {
    const victimThread = `victim-thread-${crypto.randomUUID()}`;
    expect((await startRun(other, victimThread, `r-${crypto.randomUUID()}`, "victim's secret")).error).toBeNull();
    const attack = await startRun(owner, victimThread, `r-${crypto.randomUUID()}`, "attacker");
    expect(attack.error).toBeNull();
    expect(attack.data).toEqual([]); // none of the victim's earlier turns
    expect(await positionsOf(other, victimThread)).toEqual([1]);
    expect(await positionsOf(owner, victimThread)).toEqual([1]);
  });

  test("a run is finished once: the second finish answers 409 RUN_ALREADY_FINISHED and appends nothing", async () => {
    const before = await positionsOf(owner, thread);
    const again = await finishRun(owner, run, {
      p_messages: [{ role: "tool", content: "late", metadata: { storage_path: "tool-payloads/x" } }],
    });
    expect(again.status).toBe(409);
    expect(again.error).toMatchObject({ code: "PT409", message: "RUN_ALREADY_FINISHED" });
    expect(await positionsOf(owner, thread)).toEqual(before);
  });

  test("reusing a run id answers 409 RUN_EXISTS", async () => {
    const again = await startRun(owner, thread, run);
    expect(again.status).toBe(409);
    expect(again.error).toMatchObject({ code: "PT409", message: "RUN_EXISTS" });
  });
});

describe("malformed calls answer 4xx, never 5xx", () => {
  const cases: Array<[string, () => Promise<{ status: number; error: unknown }>]> = [
    [
      "a user message slipped into the finish",
      () => finishRun(owner, `r-${crypto.randomUUID()}`, { p_messages: [{ role: "user", content: "forged" }] }),
    ],
    ["an unknown status", () => finishRun(owner, run, { p_status: "hacked" })],
    ["messages that are not an array", () => finishRun(owner, run, { p_messages: { role: "tool" } })],
    ["a message that is not an object", () => finishRun(owner, run, { p_messages: ["tool"] })],
    [
      "an error code too long for the column",
      async () => {
        const id = `r-${crypto.randomUUID()}`;
        await startRun(owner, thread, id);
        return finishRun(owner, id, { p_status: "failed", p_error_code: "X".repeat(65) });
      },
    ],
    ["a NUL character in the user's text", () => startRun(owner, thread, `r-${crypto.randomUUID()}`, "a\u0000b")],
    ["a thread id longer than 128 characters", () => startRun(owner, "t".repeat(129), `r-${crypto.randomUUID()}`)],
    ["an empty run id", () => startRun(owner, thread, "")],
    [
      "user metadata that is not an object",
      async () =>
        (await clientAs(owner)).rpc("record_run_start", {
          p_thread_id: thread,
          p_run_id: `r-${crypto.randomUUID()}`,
          p_title: "t",
          p_models: {},
          p_user_content: "x",
          p_user_metadata: [1],
        }),
    ],
  ];

  test.each(cases)("%s", async (_label, call) => {
    const { status, error } = await call();
    expect(error).not.toBeNull();
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
  });

  test("the runs a malformed finish named are still running (nothing half-written)", async () => {
    const id = `r-${crypto.randomUUID()}`;
    await startRun(owner, thread, id);
    const before = await positionsOf(owner, thread);
    expect(
      (
        await finishRun(owner, id, {
          p_messages: [
            { role: "assistant", content: "ok" },
            { role: "system", content: "forged" },
          ],
        })
      ).status,
    ).toBe(400);
    expect(await positionsOf(owner, thread)).toEqual(before);
    expect((await sql<{ status: string }>("select status from runs where owner_id = $1 and id = $2", [owner, id]))[0]!.status).toBe(
      "running",
    );
  });
});

test("positions count one thread only: two users interleaving get gapless 1..n each", async () => {
  const [a, b] = await Promise.all([createUser("a"), createUser("b")]);
  const threadA = `t-${crypto.randomUUID()}`;
  const threadB = `t-${crypto.randomUUID()}`;
  for (let i = 0; i < 3; i++) {
    for (const [user, threadId] of [
      [a, threadA],
      [b, threadB],
      [b, threadB],
    ] as const) {
      const id = `r-${crypto.randomUUID()}`;
      expect((await startRun(user, threadId, id)).error).toBeNull();
      expect(
        (
          await finishRun(user, id, {
            p_messages: [
              { role: "tool", content: "s", metadata: {} },
              { role: "assistant", content: "x", metadata: {} },
            ],
          })
        ).error,
      ).toBeNull();
    }
  }
  // Read back as each user sees it through PostgREST.
  const seen = async (user: string, threadId: string) =>
    ((await (await clientAs(user)).from("messages").select("position").eq("thread_id", threadId).order("position")).data ?? []).map((row) =>
      Number(row.position),
    );
  expect(await seen(a, threadA)).toEqual(Array.from({ length: 9 }, (_, i) => i + 1));
  expect(await seen(b, threadB)).toEqual(Array.from({ length: 18 }, (_, i) => i + 1));
  // No global counter is readable any more.
  expect((await (await clientAs(a)).from("messages").select("seq").limit(1)).error?.code).toBe("42703");
});
