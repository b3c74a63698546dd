// Worker entry of the Tool Agent. The default export is the public HTTP API (API keys). The
// named entrypoint ToolAgentForAgent is what the chat agent's service binding points at: it is
// not reachable from the internet, so a request arriving there comes from the chat agent, which
// names the user it acts for.
import { WorkerEntrypoint } from "cloudflare:workers";
import { createToolAgentApp } from "./app.ts";
import type { ToolAgentBindings } from "./app-env.ts";
import { asBoundAgent, byApiKey } from "./auth/caller.ts";

const publicApp = createToolAgentApp(byApiKey);
const boundApp = createToolAgentApp(asBoundAgent);

export class ToolAgentForAgent extends WorkerEntrypoint<ToolAgentBindings> {
  override fetch(request: Request): Response | Promise<Response> {
    return boundApp.fetch(request, this.env, this.ctx);
  }
}

export default {
  fetch: publicApp.fetch,
} satisfies ExportedHandler<ToolAgentBindings>;
