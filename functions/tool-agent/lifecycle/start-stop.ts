// Starting and stopping a tool. A docker source really
// starts and stops its container. A local tool's sandbox and a remote API have nothing to boot:
// starting marks the tool running (its sandbox loads on the first call) and stopping marks it
// stopped, so the idle and eviction rules and GET /tools/status see what callers see.
import type { CallContext } from "../calls/call-context.ts";
import type { ToolDatabase } from "../database.ts";
import { updateRoute } from "../registry/tool-store.ts";
import { activeSource } from "../registry/tool-view.ts";
import { type DockerOptions, startContainer, stopContainer } from "../sources/docker-source.ts";
import type { StoredTool } from "../tool-types.ts";

export interface LifecycleAnswer {
  tool_id: string;
  state: "running" | "stopped" | "error";
  port: null;
  container_id?: string | null;
  last_error?: string;
}

export async function startTool(ctx: CallContext, stored: StoredTool): Promise<LifecycleAnswer> {
  const toolId = stored.tool.tool_id;
  const source = activeSource(stored);
  if (source?.type === "docker") {
    try {
      const container = await startContainer(stored.tool, source, ctx.sources.docker);
      if (stored.route?.state !== "running")
        await updateRoute(ctx.db, toolId, { state: "running", started_at: new Date().toISOString(), last_error: null });
      return { tool_id: toolId, state: "running", port: null, container_id: container.container_id };
    } catch (error) {
      const lastError = `the container (${source.image}) could not start: ${(error as Error).message}`.slice(0, 2000);
      await updateRoute(ctx.db, toolId, { state: "error", last_error: lastError });
      return { tool_id: toolId, state: "error", port: null, last_error: lastError };
    }
  }
  if (stored.route?.state === "running") return { tool_id: toolId, state: "running", port: null };
  await updateRoute(ctx.db, toolId, { state: "running", started_at: new Date().toISOString(), last_error: null });
  return { tool_id: toolId, state: "running", port: null };
}

/** Stops what runs for the tool (its container, if a source is docker); answers the containers stopped. */
export async function stopRuntime(stored: StoredTool, db: ToolDatabase, containers: DockerOptions["containers"]): Promise<string[]> {
  const stopped = stored.sources.some((s) => s.type === "docker") ? await stopContainer(stored.tool.tool_id, containers, db) : [];
  await updateRoute(db, stored.tool.tool_id, { state: "stopped", started_at: null });
  return stopped;
}

export async function stopTool(ctx: CallContext, stored: StoredTool): Promise<LifecycleAnswer> {
  await stopRuntime(stored, ctx.db, ctx.sources.docker.containers);
  return { tool_id: stored.tool.tool_id, state: "stopped", port: null };
}
