// project_cli's tools module reaches the Tool Agent through the agent Worker's service binding
// (TOOL_AGENT, the ToolAgentForAgent entrypoint), acting for the run's user: the Tool Agent
// trusts the x-acting-user header only on that entrypoint, which the internet cannot reach.
// Every request has a deadline; a body that is not JSON reads as null.
import type { ToolRegistry } from "../../project_cli/context.ts";

/** Longest wait for the Tool Agent: its own tool-call deadline (10 s by default) plus its registry reads. */
export const TOOL_REGISTRY_TIMEOUT_MS = 15_000;

export function boundToolRegistry(binding: Fetcher, userId: string, timeoutMs = TOOL_REGISTRY_TIMEOUT_MS): ToolRegistry {
  return {
    async request(path, body) {
      const response = await binding.fetch(`https://tool-agent.internal${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { "x-acting-user": userId, "content-type": "application/json", accept: "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await response.text();
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: the caller reads the status
      }
      return { status: response.status, body: parsed };
    },
  };
}
