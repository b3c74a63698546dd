// ContainerInfo rows: one when a tool's container starts, marked destroyed when it
// stops, last_accessed on each call. The rows are the record; the container's own Durable
// Object is the truth about whether it runs.
import { log } from "../../lib/log.ts";
import type { ToolDatabase } from "../database.ts";

export interface ContainerLimits {
  memLimit: string;
  nanoCpus: number;
}

export async function recordStarted(
  db: ToolDatabase,
  toolId: string,
  container: { id: string; image: string; internalPort: number },
  limits: ContainerLimits,
): Promise<void> {
  const { error } = await db.from("containers").insert({
    container_id: container.id,
    tool_id: toolId,
    image: container.image,
    port_mapping: { [String(container.internalPort)]: container.internalPort },
    mem_limit: limits.memLimit,
    nano_cpus: limits.nanoCpus,
    status: "running",
    last_accessed: new Date().toISOString(),
  });
  if (error) log.warn("tool_agent.container_not_recorded", { tool_id: toolId, container_id: container.id, code: error.code });
}

/** Marks the tool's running containers destroyed; answers their ids. */
export async function recordStopped(db: ToolDatabase, toolId: string): Promise<string[]> {
  const { data, error } = await db
    .from("containers")
    .update({ status: "destroyed", destroyed_at: new Date().toISOString() })
    .eq("tool_id", toolId)
    .eq("status", "running")
    .select("container_id");
  if (error) log.warn("tool_agent.container_not_recorded", { tool_id: toolId, code: error.code });
  return (data ?? []).map((row) => row.container_id);
}

export async function recordAccess(db: ToolDatabase, containerId: string): Promise<void> {
  const { error } = await db.from("containers").update({ last_accessed: new Date().toISOString() }).eq("container_id", containerId);
  if (error) log.warn("tool_agent.container_not_recorded", { container_id: containerId, code: error.code });
}
