// The MCP server, driven by the official MCP TypeScript SDK client over Streamable HTTP: it lists
// the active tools with their schemas, and calls go through select_tool (validation, budget and
// approval, fallback), with scopes enforced.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, expect, test } from "vitest";
import { registerSeedTools } from "../../../supabase/local/tool-agent-dev.ts";
import { localTool, startToolAgentDev, type ToolAgentDev } from "../../support/tool-agent-dev.ts";

let agent: ToolAgentDev;
const clients: Client[] = [];

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: "tool-agent-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${agent.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
  );
  clients.push(client);
  return client;
}

beforeAll(async () => {
  agent = await startToolAgentDev();
  await registerSeedTools(agent.url, agent.keys.admin);
  await agent.register(localTool("dormant", "export default {}", { status: "inactive" }));
  await agent.register(
    localTool("pricey", "export default { async fetch() { return Response.json({ ok: 1 }); } };", { cost_per_call_usd: 15 }),
  );
}, 90_000);
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  await agent?.dev.stop();
});

test("tools/list: the active tools, with their input and output schemas", async () => {
  const client = await connect(agent.keys.search);
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(["json_transform", "pricey", "text_stats", "unit_convert"]);
  const unit = tools.find((t) => t.name === "unit_convert")!;
  expect(unit).toMatchObject({
    title: "Unit converter 单位换算",
    inputSchema: { type: "object", required: ["value", "from", "to"] },
    outputSchema: { type: "object" },
  });
});

test("tools/call runs the tool through select_tool", async () => {
  const client = await connect(agent.keys.invoke);
  const result = await client.callTool({ name: "unit_convert", arguments: { value: 1, from: "kg", to: "g" } });
  expect(result.isError).toBeFalsy();
  expect(result.structuredContent).toEqual({ value: 1000, unit: "g", kind: "mass" });
  expect(JSON.parse((result.content as { text: string }[])[0]!.text)).toEqual({ value: 1000, unit: "g", kind: "mass" });
});

test("bad params, an approval, and a missing scope come back as error results", async () => {
  const client = await connect(agent.keys.invoke);
  const invalid = await client.callTool({ name: "unit_convert", arguments: { value: "x" } });
  expect(invalid.isError).toBe(true);
  expect(JSON.parse((invalid.content as { text: string }[])[0]!.text)).toMatchObject({
    code: "INVALID_PARAMS",
    missing_fields: ["from", "to"],
  });
  const held = await client.callTool({ name: "pricey", arguments: {} });
  expect(JSON.parse((held.content as { text: string }[])[0]!.text)).toMatchObject({
    code: "APPROVAL_REQUIRED",
    approval: { cost_usd: 15 },
  });
  const unknown = await client.callTool({ name: "ghost", arguments: {} });
  expect(JSON.parse((unknown.content as { text: string }[])[0]!.text).code).toBe("NOT_FOUND");

  const searchOnly = await connect(agent.keys.search);
  const refused = await searchOnly.callTool({ name: "unit_convert", arguments: { value: 1, from: "m", to: "cm" } });
  expect(refused.isError).toBe(true);
  expect(JSON.parse((refused.content as { text: string }[])[0]!.text).code).toBe("FORBIDDEN");
});

test("no key, no MCP", async () => {
  const response = await fetch(`${agent.url}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  expect(response.status).toBe(401);
});
