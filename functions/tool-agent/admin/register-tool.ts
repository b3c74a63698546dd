// register, unregister and destroy. Registering stores a local tool's module in
// object storage under its new version (so a cached sandbox of the old version is never
// reused), encrypts a remote API key, then writes the registry in one transaction.
import type { Json } from "../../lib/database.types.ts";
import { withinDeadline } from "../bounded.ts";
import type { ToolContainer } from "../containers/tool-container.ts";
import type { ToolDatabase } from "../database.ts";
import { stopRuntime } from "../lifecycle/start-stop.ts";
import type { RegisterToolRequest, SourceRequest } from "../registry/tool-request.ts";
import { currentVersion, deleteTool, getTool, saveTool } from "../registry/tool-store.ts";
import { maskSecret, sealSecret } from "../secrets/secret-box.ts";
import { hostDirFor, moduleKey } from "../sources/local-source.ts";
import { checkToolModule } from "../sources/sandbox-modules.ts";

export interface RegistryStorage {
  db: ToolDatabase;
  code: R2Bucket;
  /** Deadline of each object-storage call (DATA_PLANE_TIMEOUT_MS). */
  timeoutMs: number;
  secretKey: CryptoKey;
  containers: DurableObjectNamespace<ToolContainer>;
}

/** A source as the register_tool function stores it. */
async function storedSource(storage: RegistryStorage, toolId: string, version: number, source: SourceRequest): Promise<Json> {
  const endpoint = { endpoint_path: source.endpoint_path, http_method: source.http_method, timeout_ms: source.timeout_ms ?? null };
  switch (source.type) {
    case "local": {
      // Unique per registration: of two registrations racing for one version, the loser's
      // module never replaces the winner's (the loser gets CONFLICT; destroy cleans both).
      const hostDir = hostDirFor(toolId, version, crypto.randomUUID().slice(0, 8));
      await withinDeadline(
        storage.code.put(moduleKey(hostDir), source.module, { httpMetadata: { contentType: "text/javascript" } }),
        storage.timeoutMs,
        "storing the tool's module",
      );
      return { type: "local", ...endpoint, host_dir: hostDir, allow_network: source.allow_network };
    }
    case "remote":
      return {
        type: "remote",
        ...endpoint,
        remote_url: source.remote_url,
        remote_path: source.remote_path ?? null,
        remote_api_key_encrypted: source.remote_api_key ? await sealSecret(storage.secretKey, source.remote_api_key, toolId) : null,
        remote_api_key_masked: maskSecret(source.remote_api_key),
      };
    case "docker":
      return {
        type: "docker",
        ...endpoint,
        image: source.image,
        internal_port: source.internal_port,
        container_id: source.container_id ?? null,
      };
  }
}

/** Checks every local module before anything is written: a syntax error names its line. */
export function checkSources(request: RegisterToolRequest): void {
  for (const source of request.sources) if (source.type === "local") checkToolModule(source.module);
}

export async function registerTool(storage: RegistryStorage, request: RegisterToolRequest): Promise<{ tool_id: string; version: number }> {
  checkSources(request);
  const version = (await currentVersion(storage.db, request.tool_id)) + 1;
  const sources: Json[] = [];
  for (const source of request.sources) sources.push(await storedSource(storage, request.tool_id, version, source));
  const { sources: _, ...tool } = request;
  await saveTool(storage.db, tool as Json, sources, version);
  return { tool_id: request.tool_id, version };
}

export async function unregisterTool(storage: RegistryStorage, toolId: string): Promise<boolean> {
  return deleteTool(storage.db, toolId);
}

export interface DestroyReport {
  tool_id: string;
  found: boolean;
  stopped: boolean;
  containers_destroyed: string[];
  code_objects_deleted: number;
  registry_removed: boolean;
}

/** Stops the tool, deletes its stored code (every version) and its containers' records, then the registry rows. */
export async function destroyTool(storage: RegistryStorage, toolId: string): Promise<DestroyReport> {
  const stored = await getTool(storage.db, toolId);
  const stopped = stored?.route?.state === "running" || stored?.route?.state === "starting";
  let deleted = 0;
  let cursor: string | undefined;
  do {
    const page = await withinDeadline(
      storage.code.list({ prefix: `tools/${toolId}/`, cursor }),
      storage.timeoutMs,
      "listing the tool's code",
    );
    if (page.objects.length) {
      await withinDeadline(storage.code.delete(page.objects.map((o) => o.key)), storage.timeoutMs, "deleting the tool's code");
      deleted += page.objects.length;
    }
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  const containers = stored ? await stopRuntime(stored, storage.db, storage.containers) : [];
  const removed = await deleteTool(storage.db, toolId);
  return {
    tool_id: toolId,
    found: stored !== null,
    stopped,
    containers_destroyed: containers,
    code_objects_deleted: deleted,
    registry_removed: removed,
  };
}
