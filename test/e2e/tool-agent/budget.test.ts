// Spending: each paid call is in the ledger; a call above the approval threshold waits
// for an admin and then runs once; a call over a limit is refused with the figures.
import { afterAll, beforeAll, expect, test } from "vitest";
import { localTool, startToolAgentDev, type ToolAgentDev } from "../../support/tool-agent-dev.ts";

let agent: ToolAgentDev;
const module = "export default { async fetch(request) { const body = await request.json(); return Response.json({ got: body }); } };";

beforeAll(async () => {
  agent = await startToolAgentDev({
    TOOL_AGENT_MONTHLY_LIMIT_USD: "30",
    TOOL_AGENT_SINGLE_TX_LIMIT_USD: "20",
    TOOL_AGENT_REQUIRE_APPROVAL_ABOVE_USD: "10",
  });
  await agent.register(localTool("cheap", module, { cost_per_call_usd: 5 }));
  await agent.register(localTool("pricey", module, { cost_per_call_usd: 15 }));
  await agent.register(localTool("too_pricey", module, { cost_per_call_usd: 25 }));
  await agent.register(localTool("free", module));
}, 90_000);
afterAll(() => agent?.dev.stop());

const select = (tool_id: string, params: Record<string, unknown> = {}) =>
  agent.call("/select_tool", { body: { tool_id, params }, key: agent.keys.invoke });
const ledger = () =>
  agent.sql<{ tool_id: string; cost_usd: string; approval_id: string | null; caller: string }>(
    "select tool_id, cost_usd, approval_id, caller from tool_agent.cost_ledger order by entry_id",
  );

test("the month's story: paid calls are recorded, a held call runs once when approved, the budget stops the rest", async () => {
  // A free tool leaves no ledger row; a paid one leaves one, naming the key's id (never the key).
  expect((await select("free")).status).toBe(200);
  expect((await select("cheap", { n: 1 })).status).toBe(200);
  let rows = await ledger();
  expect(rows.map((r) => [r.tool_id, Number(r.cost_usd)])).toEqual([["cheap", 5]]);
  expect(rows[0]!.caller).toMatch(/^key:[0-9a-f-]{36}$/);

  // Over the single-call limit: refused with the figures, nothing recorded.
  const tooPricey = await select("too_pricey");
  expect(tooPricey.status).toBe(402);
  expect((await tooPricey.json()).error).toMatchObject({ code: "BUDGET_EXCEEDED", reason: "single_tx_limit", cost_usd: 25, limit_usd: 20 });

  // Above the approval threshold: held, not run.
  const held = await select("pricey", { n: 2 });
  expect(held.status).toBe(202);
  const { approval } = await held.json();
  expect(approval).toMatchObject({ cost_usd: 15, threshold_usd: 10 });
  expect((await ledger()).length).toBe(1);
  const pending = await (await agent.call("/approvals")).json();
  expect(pending.approvals).toEqual([expect.objectContaining({ approval_id: approval.approval_id, tool_id: "pricey", params: { n: 2 } })]);

  // An invoke key cannot approve; an admin's approval runs it once with the held params.
  expect((await agent.call(`/approvals/${approval.approval_id}/approve`, { method: "POST", key: agent.keys.invoke })).status).toBe(403);
  const approved = await agent.call(`/approvals/${approval.approval_id}/approve`, { method: "POST" });
  expect(await approved.json()).toMatchObject({ status: "success", result: { got: { n: 2 } } });
  const again = await agent.call(`/approvals/${approval.approval_id}/approve`, { method: "POST" });
  expect(again.status).toBe(404);
  rows = await ledger();
  expect(rows.map((r) => [r.tool_id, Number(r.cost_usd), r.approval_id])).toEqual([
    ["cheap", 5, null],
    ["pricey", 15, approval.approval_id],
  ]);

  // 20 spent of 30: two more cheap calls fit exactly, the next does not.
  expect((await select("cheap")).status).toBe(200);
  expect((await select("cheap")).status).toBe(200);
  const over = await select("cheap");
  expect(over.status).toBe(402);
  expect((await over.json()).error).toMatchObject({ code: "BUDGET_EXCEEDED", reason: "monthly_limit", limit_usd: 30, month_spent_usd: 30 });
});

test("a refused approval never runs", async () => {
  const held = await (await select("pricey", { n: 3 })).json();
  const refused = await agent.call(`/approvals/${held.approval.approval_id}/refuse`, { method: "POST" });
  expect(await refused.json()).toEqual({ refused: true, approval_id: held.approval.approval_id });
  expect((await agent.call(`/approvals/${held.approval.approval_id}/approve`, { method: "POST" })).status).toBe(404);
  const [row] = await agent.sql<{ status: string }>("select status from tool_agent.approvals where approval_id = $1", [
    held.approval.approval_id,
  ]);
  expect(row!.status).toBe("refused");
});

test("concurrent paid calls cannot overspend the month", async () => {
  await agent.sql("delete from tool_agent.cost_ledger");
  const answers = await Promise.all(Array.from({ length: 10 }, () => select("cheap")));
  const statuses = answers.map((a) => a.status).sort();
  expect(statuses.filter((s) => s === 200)).toHaveLength(6);
  expect(statuses.filter((s) => s === 402)).toHaveLength(4);
  const [sum] = await agent.sql<{ total: string }>("select sum(cost_usd) as total from tool_agent.cost_ledger");
  expect(Number(sum!.total)).toBe(30);
});
