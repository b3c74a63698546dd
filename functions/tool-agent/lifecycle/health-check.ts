// One health check of a tool's active source, without running the tool (a call could cost
// money or change something): a local tool's module must still be in storage, a remote API must
// answer its base URL below 500 within the deadline, and a docker source's container must run.

import { withinDeadline } from "../bounded.ts";
import { activeSource } from "../registry/tool-view.ts";
import { containerRunning, type DockerOptions } from "../sources/docker-source.ts";
import { moduleKey } from "../sources/local-source.ts";
import type { StoredTool } from "../tool-types.ts";

export type Health = { healthy: true } | { healthy: false; error: string };

export interface HealthCheckOptions {
  code: R2Bucket;
  containers: DockerOptions["containers"];
  timeoutMs: number;
  fetch?: typeof fetch;
}

export async function checkHealth(tool: StoredTool, options: HealthCheckOptions): Promise<Health> {
  const source = activeSource(tool);
  if (!source) return { healthy: false, error: "the tool has no sources" };
  switch (source.type) {
    case "local": {
      const head = await withinDeadline(
        options.code.head(moduleKey(source.host_dir ?? "")),
        options.timeoutMs,
        "reading the module's record",
      );
      return head
        ? { healthy: true }
        : { healthy: false, error: `the module is missing from storage (${moduleKey(source.host_dir ?? "")})` };
    }
    case "remote": {
      try {
        const response = await (options.fetch ?? fetch)(source.remote_url ?? "", {
          method: "GET",
          signal: AbortSignal.timeout(options.timeoutMs),
          redirect: "manual",
        });
        await response.body?.cancel();
        return response.status < 500 ? { healthy: true } : { healthy: false, error: `HTTP ${response.status}` };
      } catch (error) {
        const name = (error as Error).name;
        return { healthy: false, error: name === "TimeoutError" ? `no answer within ${options.timeoutMs} ms` : `unreachable (${name})` };
      }
    }
    case "docker":
      try {
        return (await containerRunning(tool.tool.tool_id, options.containers))
          ? { healthy: true }
          : { healthy: false, error: "the container is not running" };
      } catch (error) {
        return { healthy: false, error: `the container's state could not be read: ${(error as Error).message}` };
      }
  }
}
