// A route's way to the call context: settings, bindings, database, caller.
import type { Context } from "hono";
import type { ToolAgentEnv } from "../app-env.ts";
import { type CallContext, callContext } from "../calls/call-context.ts";
import { toolDatabase } from "../database.ts";

export async function contextOf(c: Context<ToolAgentEnv>): Promise<CallContext> {
  return callContext(c.var.settings, c.env, await toolDatabase(c.var.settings), c.var.caller);
}
