// Search quality on a labelled query set (test/fixtures/tool-search-labelled.json): English and
// Chinese keywords, typos, parameter names. Prints recall@3 and every miss; holds it above a
// floor so a ranking change that loses what people type fails here.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { registerSeedTools } from "../../../supabase/local/tool-agent-dev.ts";
import { localTool, startToolAgentDev, type ToolAgentDev } from "../../support/tool-agent-dev.ts";

interface Labelled {
  tools: { tool_id: string; name: string; category: string; description: string; params: string[] }[];
  queries: { query: string; relevant: string[] }[];
}

const labelled: Labelled = JSON.parse(readFileSync(resolve(import.meta.dirname, "../../fixtures/tool-search-labelled.json"), "utf8"));
let agent: ToolAgentDev;

beforeAll(async () => {
  agent = await startToolAgentDev();
  await registerSeedTools(agent.url, agent.keys.admin);
  for (const tool of labelled.tools) {
    await agent.register(
      localTool(tool.tool_id, "export default { async fetch() { return Response.json({}); } };", {
        name: tool.name,
        category: tool.category,
        description: tool.description,
        input_schema: { type: "object", properties: Object.fromEntries(tool.params.map((p) => [p, { type: "string" }])) },
      }),
    );
  }
}, 90_000);
afterAll(() => agent?.dev.stop());

test("recall@3 over the labelled queries", async () => {
  let recallSum = 0;
  const misses: string[] = [];
  for (const { query, relevant } of labelled.queries) {
    const answer = await (await agent.call("/search_tools", { body: { keyword: query, limit: 3 }, key: agent.keys.search })).json();
    const top: string[] = answer.tools.map((tool: { tool_id: string }) => tool.tool_id);
    const found = relevant.filter((id) => top.includes(id)).length;
    recallSum += found / relevant.length;
    if (found < relevant.length) misses.push(`"${query}" wanted ${relevant.join(", ")}, got [${top.join(", ")}]`);
  }
  const recall = recallSum / labelled.queries.length;
  console.log(`search recall@3: ${recall.toFixed(3)} over ${labelled.queries.length} queries, ${labelled.tools.length + 3} tools`);
  for (const miss of misses) console.log(`  miss: ${miss}`);
  expect(recall).toBeGreaterThanOrEqual(0.9);
});
