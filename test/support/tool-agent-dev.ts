// The Tool Agent on `wrangler dev` for end-to-end tests: its own data plane and state, a secret
// key, API keys of each scope issued into its database, and a superuser view of what it stored.
import type { Scope } from "../../functions/tool-agent/app-env.ts";
import { withSuperuser } from "../../supabase/local/postgres.ts";
import { issueToolKey } from "../../supabase/local/tool-agent-dev.ts";
import { startWranglerDev, type WranglerDev } from "./wrangler-dev.ts";

export interface ToolAgentDev {
  dev: WranglerDev;
  url: string;
  keys: Record<"admin" | "search" | "invoke", string>;
  /** fetch with a key's bearer (admin's by default) and a JSON body (then POST). */
  call(path: string, options?: { key?: string; body?: unknown; method?: string }): Promise<JsonResponse>;
  issueKey(scopes: Scope[]): Promise<string>;
  /** A query as the database superuser, to look at what the Tool Agent stored. */
  sql<Row extends Record<string, unknown>>(text: string, values?: unknown[]): Promise<Row[]>;
  /** Registers a tool as admin; throws unless 201. */
  register(tool: Record<string, unknown>): Promise<void>;
  /** Runs the Cron Trigger's handler once and waits for it. */
  runScheduled(): Promise<void>;
}

/** A response whose JSON the test reads as it knows it to be. */
export type JsonResponse = Omit<Response, "json"> & { json(): Promise<any> };

export const TEST_SECRET_KEY = Buffer.alloc(32, 7).toString("base64");

export async function startToolAgentDev(
  vars: Record<string, string> = {},
  options: { registry?: string; readyStatus?: number } = {},
): Promise<ToolAgentDev> {
  const dev = await startWranglerDev({
    config: "functions/tool-agent/wrangler.toml",
    registry: options.registry,
    readyStatus: options.readyStatus,
    args: ["--test-scheduled"], // GET /__scheduled runs the maintenance
    vars: { TOOL_AGENT_SECRET_KEY: TEST_SECRET_KEY, ...vars },
  });
  const issueKey = (scopes: Scope[]) => issueToolKey(dev.plane.postgresPort, `test ${scopes.join("+")}`, scopes);
  const keys = { admin: await issueKey(["admin"]), search: await issueKey(["search"]), invoke: await issueKey(["search", "invoke"]) };
  const call: ToolAgentDev["call"] = (path, options = {}) =>
    fetch(`${dev.url}${path}`, {
      method: options.method ?? (options.body === undefined ? "GET" : "POST"),
      headers: { authorization: `Bearer ${options.key ?? keys.admin}`, "content-type": "application/json" },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    }) as Promise<Response> as Promise<JsonResponse>;
  return {
    dev,
    url: dev.url,
    keys,
    issueKey,
    call,
    sql: (text, values) => withSuperuser(dev.plane.postgresPort, async (db) => (await db.query(text, values)).rows),
    async runScheduled() {
      const response = await fetch(`${dev.url}/__scheduled?cron=${encodeURIComponent("* * * * *")}`);
      if (!response.ok) throw new Error(`/__scheduled answered ${response.status}: ${await response.text()}`);
      await response.body?.cancel();
    },
    async register(tool) {
      const response = await call("/tools", { body: tool });
      if (response.status !== 201) throw new Error(`registering ${tool.tool_id} answered ${response.status}: ${await response.text()}`);
    },
  };
}

/** A local tool registration around `module`, taking any object and answering whatever it answers. */
export function localTool(toolId: string, module: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    tool_id: toolId,
    name: toolId,
    description: `test tool ${toolId}`,
    input_schema: { type: "object" },
    sources: [{ type: "local", module }],
    ...extra,
  };
}
