// The Tool Agent Worker's bindings (functions/tool-agent/wrangler.toml) and per-request variables.
// Written out rather than generated: `wrangler types` declares a second global Env and a
// duplicate helper type beside the agent Worker's worker-configuration.d.ts. The settings
// (strings) are validated by settings.ts, so only the bindings need types here.
import type { ToolContainer } from "./containers/tool-container.ts";
import type { ToolAgentSettings } from "./settings.ts";

export interface ToolAgentBindings {
  /** Local tools' modules. */
  TOOL_CODE: R2Bucket;
  /** The sandbox local tools run in (Dynamic Worker Loader). */
  LOADER: WorkerLoader;
  /** One Durable Object per docker-sourced tool, owning its container. */
  TOOL_CONTAINERS: DurableObjectNamespace<ToolContainer>;
  /** Tasks (build, deploy, repair a tool), one Workflow instance each (tasks/task-workflow.ts). */
  TOOL_TASKS: Workflow<{ task_id: string; attempt: number }>;
  /** The internal messages (agent-messages.ts), typed where they are sent and parsed where received. */
  TOOL_MESSAGES: Queue<unknown>;
  [setting: string]: unknown;
}

export type Scope = "search" | "invoke" | "admin" | "create";

/** Who is calling: an external agent with an API key, or the chat agent for one of its users. */
export type Caller =
  | { kind: "api_key"; keyId: string; scopes: readonly Scope[] }
  | { kind: "agent"; userId: string; scopes: readonly Scope[] };

/** The caller as the ledger and the logs name it; never a key. */
export const callerName = (caller: Caller) => (caller.kind === "api_key" ? `key:${caller.keyId}` : `user:${caller.userId}`);

export interface ToolAgentEnv {
  Bindings: ToolAgentBindings;
  Variables: {
    requestId: string;
    settings: ToolAgentSettings;
    caller: Caller;
  };
}
