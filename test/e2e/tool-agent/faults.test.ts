// When the Tool Agent's database goes away: every route answers 503 UPSTREAM_UNAVAILABLE
// (retryable), select_tool in its own shape, health says degraded, an unknown key is not
// mistaken for a bad one, and all of it recovers when the database is back.
import { afterAll, beforeAll, expect, test } from "vitest";
import { registerSeedTools } from "../../../supabase/local/tool-agent-dev.ts";
import { startToolAgentDev, type ToolAgentDev } from "../../support/tool-agent-dev.ts";

let agent: ToolAgentDev;
beforeAll(async () => {
  agent = await startToolAgentDev({ DATA_PLANE_TIMEOUT_MS: "1000" });
  await registerSeedTools(agent.url, agent.keys.admin);
  // Each key is checked once while the database is up (keys are cached for a minute).
  for (const key of [agent.keys.search, agent.keys.invoke]) await agent.call("/search_tools", { body: {}, key });
}, 90_000);
afterAll(() => agent?.dev.stop());

test("a database that is down is a 503 everywhere, and the run resumes once it is back", async () => {
  await agent.dev.plane.stopPostgres();
  try {
    const search = await agent.call("/search_tools", { body: { keyword: "unit" }, key: agent.keys.search });
    expect(search.status).toBe(503);
    expect((await search.json()).error).toMatchObject({ code: "UPSTREAM_UNAVAILABLE", retryable: true });

    const select = await agent.call("/select_tool", {
      body: { tool_id: "unit_convert", params: { value: 1, from: "m", to: "cm" } },
      key: agent.keys.invoke,
    });
    expect(select.status).toBe(503);
    expect(await select.json()).toMatchObject({ status: "error", result: null, error: { code: "UPSTREAM_UNAVAILABLE", retryable: true } });

    const unknownKey = await agent.issueKey(["search"]).catch(() => `ta_${"y".repeat(43)}`);
    const check = await agent.call("/search_tools", { body: {}, key: unknownKey });
    expect(check.status).toBe(503);

    const health = await fetch(`${agent.url}/health`);
    expect(health.status).toBe(503);
  } finally {
    await agent.dev.plane.startPostgres();
  }
  const again = await agent.call("/select_tool", {
    body: { tool_id: "unit_convert", params: { value: 1, from: "m", to: "cm" } },
    key: agent.keys.invoke,
  });
  expect((await again.json()).result).toEqual({ value: 100, unit: "cm", kind: "length" });
}, 60_000);

test("a setting that is wrong is named, by /health and by every route, never with its value", async () => {
  const misconfigured = await startToolAgentDev(
    { TOOL_AGENT_EVICTION_POLICY: "fifo", TOOL_AGENT_MONTHLY_LIMIT_USD: "-5" },
    { readyStatus: 500 },
  );
  try {
    const health = await (await fetch(`${misconfigured.url}/health`)).json();
    expect(health).toMatchObject({ status: "misconfigured", error: { code: "CONFIG_INVALID" } });
    const search = await misconfigured.call("/search_tools", { body: {} });
    expect(search.status).toBe(500);
    const { error } = await search.json();
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.problems.map((p: { setting: string }) => p.setting).sort()).toEqual([
      "TOOL_AGENT_EVICTION_POLICY",
      "TOOL_AGENT_MONTHLY_LIMIT_USD",
    ]);
    expect(JSON.stringify(error)).not.toContain("fifo");
  } finally {
    await misconfigured.dev.stop();
  }
}, 90_000);
