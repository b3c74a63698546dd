// Row Level Security, table by table: a user reaches its own rows and nobody else's, and
// anon reaches nothing. Every request goes through PostgREST with a minted credential,
// exactly as the Worker makes it.
import { beforeAll, describe, expect, test } from "vitest";
import { anonClient, clientAs, createUser, superuser } from "../support/users.ts";

type Row = Record<string, unknown>;

interface TableCase {
  table: string;
  /** Creates a row owned by `owner` (as superuser) and returns the filter that selects it. */
  seed(owner: string): Promise<Row>;
  /** A harmless change an attacker would like to make. */
  patch: Row;
  /** The body of an insert that claims `owner` as the owner. */
  forgedInsert(owner: string): Promise<Row>;
}

const sql = <T extends Row>(text: string, values: unknown[]) => superuser(async (db) => (await db.query<T>(text, values)).rows);

async function itemOf(owner: string): Promise<string> {
  const [row] = await sql<{ id: string }>(
    "insert into schedule_items (owner_id, title, start_at) values ($1, 'private', now()) returning id",
    [owner],
  );
  return row!.id;
}

async function threadOf(owner: string): Promise<string> {
  const id = `thread-${crypto.randomUUID()}`;
  await sql("insert into threads (owner_id, id) values ($1, $2)", [owner, id]);
  return id;
}

async function runOf(owner: string, thread: string): Promise<string> {
  const id = `run-${crypto.randomUUID()}`;
  await sql("insert into runs (owner_id, id, thread_id) values ($1, $2, $3)", [owner, id, thread]);
  return id;
}

const cases: TableCase[] = [
  {
    table: "schedule_items",
    seed: async (owner) => ({ id: await itemOf(owner) }),
    patch: { title: "taken over" },
    forgedInsert: async (owner) => ({ owner_id: owner, title: "forged", start_at: new Date().toISOString() }),
  },
  {
    table: "schedule_subscriptions",
    async seed(owner) {
      const guest = await createUser("guest");
      const [row] = await sql<{ id: string }>(
        "insert into schedule_subscriptions (item_id, subscriber_id, invited_by) values ($1, $2, $3) returning id",
        [await itemOf(owner), guest, owner],
      );
      return { id: row!.id };
    },
    patch: { permission: "invite" },
    forgedInsert: async (owner) => ({
      item_id: await itemOf(owner),
      subscriber_id: await createUser("guest"),
      invited_by: owner,
    }),
  },
  {
    table: "contacts",
    async seed(owner) {
      const [row] = await sql<{ id: string }>(
        "insert into contacts (owner_id, display_name, email) values ($1, 'Secret friend', $2) returning id",
        [owner, `friend-${crypto.randomUUID()}@example.test`],
      );
      return { id: row!.id };
    },
    patch: { display_name: "renamed" },
    forgedInsert: async (owner) => ({ owner_id: owner, display_name: "forged" }),
  },
  {
    table: "user_memory",
    async seed(owner) {
      await sql(
        "insert into user_memory (owner_id, kind, content) values ($1, 'user_memory', '{\"facts\": [\"secret\"]}') on conflict do nothing",
        [owner],
      );
      return { owner_id: owner, kind: "user_memory" };
    },
    patch: { content: { facts: ["overwritten"] } },
    forgedInsert: async (owner) => ({ owner_id: owner, kind: "work_profile", content: {} }),
  },
  {
    table: "threads",
    seed: async (owner) => ({ owner_id: owner, id: await threadOf(owner) }),
    patch: { title: "renamed" },
    forgedInsert: async (owner) => ({ owner_id: owner, id: `forged-${crypto.randomUUID()}` }),
  },
  {
    table: "runs",
    async seed(owner) {
      return { owner_id: owner, id: await runOf(owner, await threadOf(owner)) };
    },
    patch: { status: "failed" },
    forgedInsert: async (owner) => ({ owner_id: owner, id: `forged-${crypto.randomUUID()}`, thread_id: await threadOf(owner) }),
  },
  {
    table: "messages",
    async seed(owner) {
      const thread = await threadOf(owner);
      const [row] = await sql<{ id: string }>(
        "insert into messages (owner_id, thread_id, run_id, position, role, content) values ($1, $2, $3, 1, 'user', 'hello') returning id",
        [owner, thread, await runOf(owner, thread)],
      );
      return { id: row!.id };
    },
    patch: { content: "rewritten" },
    forgedInsert: async (owner) => ({ owner_id: owner, thread_id: await threadOf(owner), role: "user", content: "forged" }),
  },
];

function whereClause(filter: Row): { text: string; values: unknown[] } {
  const keys = Object.keys(filter);
  return { text: keys.map((key, i) => `${key} = $${i + 1}`).join(" and "), values: keys.map((key) => filter[key]) };
}

async function snapshot(table: string, filter: Row): Promise<Row[]> {
  const where = whereClause(filter);
  return sql(`select to_jsonb(t) as row from ${table} t where ${where.text}`, where.values);
}

let victim: string;
let attacker: string;

beforeAll(async () => {
  victim = await createUser("victim");
  attacker = await createUser("attacker");
});

describe.each(cases)("$table", ({ table, seed, patch, forgedInsert }) => {
  test("the owner reads its row (control)", async () => {
    const filter = await seed(victim);
    const { data, error } = await (await clientAs(victim)).from(table).select("*").match(filter);
    expect(error).toBeNull();
    expect(data).toHaveLength(1);
  });

  test("another user cannot read it, even by its key", async () => {
    const filter = await seed(victim);
    const { data, error } = await (await clientAs(attacker)).from(table).select("*").match(filter);
    expect(error).toBeNull();
    expect(data).toEqual([]);
  });

  test("another user cannot update it", async () => {
    const filter = await seed(victim);
    const before = await snapshot(table, filter);
    const { data } = await (await clientAs(attacker)).from(table).update(patch).match(filter).select();
    expect(data ?? []).toEqual([]);
    expect(await snapshot(table, filter)).toEqual(before);
  });

  test("another user cannot delete it", async () => {
    const filter = await seed(victim);
    const { data } = await (await clientAs(attacker)).from(table).delete().match(filter).select();
    expect(data ?? []).toEqual([]);
    expect(await snapshot(table, filter)).toHaveLength(1);
  });

  test("another user cannot insert a row in the owner's name", async () => {
    const { data, error } = await (await clientAs(attacker))
      .from(table)
      .insert(await forgedInsert(victim))
      .select();
    expect(data).toBeNull();
    expect(error?.code).toBe("42501");
  });

  test("anon sees nothing", async () => {
    const filter = await seed(victim);
    const { data, error } = await anonClient().from(table).select("*").match(filter);
    expect(data ?? []).toEqual([]);
    expect(error?.code).toBe("42501");
  });
});
