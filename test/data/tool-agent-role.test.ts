// The Tool Agent's tables belong to its own database role: app users and anon cannot reach them
// through PostgREST, and that role cannot reach the app's tables. The ledger is append-only.
import { createClient } from "@supabase/supabase-js";
import { beforeAll, describe, expect, inject, test } from "vitest";
import { TOOL_AGENT_ROLE, TOOL_AGENT_SUBJECT } from "../../functions/tool-agent/database.ts";
import { anonClient, credentialFor, SEEDED, superuser } from "../support/users.ts";

const stack = inject("localStack");
const TOOL = `role_test_${Date.now()}`;

async function clientWithToken(token: string | null, schema: "public" | "tool_agent") {
  return createClient(stack.supabaseUrl, stack.anonKey, { accessToken: async () => token, db: { schema } });
}
const serviceToken = async () => (await credentialFor(TOOL_AGENT_SUBJECT, { role: TOOL_AGENT_ROLE })).token;

beforeAll(async () => {
  await superuser((db) => db.query("insert into tool_agent.tools (tool_id, name) values ($1, 'Role test')", [TOOL]));
});

describe("the tool_agent schema", () => {
  test("the Tool Agent's role reads and writes its tables", async () => {
    const db = await clientWithToken(await serviceToken(), "tool_agent");
    const { data, error } = await db.from("tools").select("tool_id, name").eq("tool_id", TOOL);
    expect(error).toBeNull();
    expect(data).toEqual([{ tool_id: TOOL, name: "Role test" }]);
    const update = await db.from("tools").update({ description: "changed" }).eq("tool_id", TOOL).select("description");
    expect(update.data).toEqual([{ description: "changed" }]);
  });

  test("an app user and anon cannot reach any of it", async () => {
    const { token } = await credentialFor(SEEDED.alice);
    for (const db of [await clientWithToken(token, "tool_agent"), anonClient().schema("tool_agent")]) {
      for (const table of ["tools", "tool_sources", "api_keys", "cost_ledger", "approvals", "tasks", "task_log"]) {
        const { data, error } = await db.from(table).select("*").limit(1);
        expect(data, table).toBeNull();
        expect(error?.code, table).toBe("42501"); // permission denied for schema tool_agent
      }
      const rpc = await db.rpc("search_tools", { keyword: "x" });
      expect(rpc.data).toBeNull();
    }
  });

  test("the Tool Agent's role cannot reach the app's tables", async () => {
    const db = await clientWithToken(await serviceToken(), "public");
    const { data, error } = await db.from("schedule_items").select("id").limit(1);
    expect(data).toBeNull();
    expect(error?.code).toBe("42501");
  });

  test("the ledger is append-only, and the budget holds under concurrent charges", async () => {
    const db = await clientWithToken(await serviceToken(), "tool_agent");
    const caller = `test:${Date.now()}`;
    // Twenty charges of $1 against a $5 monthly limit above whatever this month already holds.
    const spent = await superuser(async (pg) =>
      Number(
        (
          await pg.query(
            "select coalesce(sum(cost_usd), 0) as s from tool_agent.cost_ledger where created_at >= date_trunc('month', now())",
          )
        ).rows[0].s,
      ),
    );
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        db.rpc("charge_call", { tool: TOOL, caller_id: caller, cost: 1, single_tx_limit: 10, monthly_limit: spent + 5 }),
      ),
    );
    const charged = answers.filter((a) => (a.data as { charged: boolean }).charged).length;
    expect(charged).toBe(5);
    const update = await db.from("cost_ledger").update({ cost_usd: 0 }).eq("caller", caller);
    expect(update.error?.code).toBe("42501");
    const remove = await db.from("cost_ledger").delete().eq("caller", caller);
    expect(remove.error?.code).toBe("42501");
  });

  test("one open repair per tool; the task log is append-only", async () => {
    const db = await clientWithToken(await serviceToken(), "tool_agent");
    const repair = (id: string) => ({
      task_id: id,
      kind: "repair_tool" as const,
      description: "fails its checks",
      task_spec: { type: "repair_tool" },
      tool_id: TOOL.slice(0, 60),
      requested_by: "health-check",
    });
    const stamp = Date.now().toString(16).slice(-10);
    const first = await db.from("tasks").insert(repair(`repair_${stamp}aa`));
    expect(first.error).toBeNull();
    const second = await db.from("tasks").insert(repair(`repair_${stamp}bb`));
    expect(second.error?.code).toBe("23505"); // tasks_one_open_repair
    await db.from("tasks").update({ status: "completed" }).eq("task_id", `repair_${stamp}aa`);
    expect((await db.from("tasks").insert(repair(`repair_${stamp}bb`))).error).toBeNull(); // the first has ended

    const logged = await db
      .from("task_log")
      .insert({ task_id: `repair_${stamp}aa`, kind: "TEXT", detail: {} })
      .select("entry_id")
      .single();
    expect(logged.error).toBeNull();
    const change = await db.from("task_log").update({ kind: "DONE" }).eq("entry_id", logged.data!.entry_id).select();
    expect(change.error?.code).toBe("42501");
    const odd = await db.from("tasks").insert({ ...repair("repair_../../etc"), tool_id: "other" });
    expect(odd.error?.code).toBe("23514"); // the task id's shape is checked
  });
});
