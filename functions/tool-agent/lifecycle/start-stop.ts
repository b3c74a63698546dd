// Starting and stopping a tool (spec §7 /tools/{id}/start and /stop). On Workers a local tool's
// sandbox and a remote API have nothing to boot: starting marks the tool running (its sandbox
// loads on the first call) and stopping marks it stopped, so the idle and eviction rules and
// GET /tools/status see what callers see. A docker source needs its container runtime.

import type { CallContext } from "../calls/call-context.ts";
import { updateRoute } from "../registry/tool-store.ts";
import { activeSource } from "../registry/tool-view.ts";
import type { StoredTool } from "../tool-types.ts";

export interface LifecycleAnswer {
  tool_id: string;
  state: "running" | "stopped" | "error";
  port: null;
  last_error?: string;
}

export async function startTool(ctx: CallContext, stored: StoredTool): Promise<LifecycleAnswer> {
  const toolId = stored.tool.tool_id;
  if (stored.route?.state === "running") return { tool_id: toolId, state: "running", port: null };
  const source = activeSource(stored);
  if (source?.type === "docker") {
    const lastError = `docker source (${source.image}) needs a container runtime, and none is configured on this deployment`;
    await updateRoute(ctx.db, toolId, { state: "error", last_error: lastError });
    return { tool_id: toolId, state: "error", port: null, last_error: lastError };
  }
  await updateRoute(ctx.db, toolId, { state: "running", started_at: new Date().toISOString(), last_error: null });
  return { tool_id: toolId, state: "running", port: null };
}

export async function stopTool(ctx: CallContext, stored: StoredTool): Promise<LifecycleAnswer> {
  await updateRoute(ctx.db, stored.tool.tool_id, { state: "stopped", started_at: null });
  return { tool_id: stored.tool.tool_id, state: "stopped", port: null };
}
