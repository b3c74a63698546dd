// What a tool call needs from the request: settings, bindings, the database, who is calling.
import type { Caller, ToolAgentBindings } from "../app-env.ts";
import type { ToolDatabase } from "../database.ts";
import { importSecretKey } from "../secrets/secret-box.ts";
import type { ToolAgentSettings } from "../settings.ts";
import type { SourceOptions } from "../sources/invoke-sources.ts";

export interface CallContext {
  settings: ToolAgentSettings;
  db: ToolDatabase;
  caller: Caller;
  sources: SourceOptions;
}

export async function callContext(
  settings: ToolAgentSettings,
  bindings: ToolAgentBindings,
  db: ToolDatabase,
  caller: Caller,
): Promise<CallContext> {
  const common = { timeoutMs: settings.calls.timeoutMs, maxBodyBytes: settings.calls.maxBodyBytes };
  return {
    settings,
    db,
    caller,
    sources: {
      local: { ...common, loader: bindings.LOADER, code: bindings.TOOL_CODE, limits: settings.sandbox },
      remote: { ...common, secretKey: await importSecretKey(settings.secretKey) },
      docker: {
        ...common,
        containers: bindings.TOOL_CONTAINERS,
        db,
        limits: { memLimit: settings.docker.memLimit, nanoCpus: settings.docker.nanoCpus },
      },
    },
  };
}
