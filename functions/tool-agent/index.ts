// Worker entry of the Tool Agent. The default export is the public HTTP API (API keys). The
// named entrypoint ToolAgentForAgent is what the chat agent's service binding points at: it is
// not reachable from the internet, so a request arriving there comes from the chat agent, which
// names the user it acts for.
import { WorkerEntrypoint } from "cloudflare:workers";
import { log } from "../lib/log.ts";
import { describeProblems } from "../lib/settings-parsing.ts";
import { createToolAgentApp } from "./app.ts";
import type { ToolAgentBindings } from "./app-env.ts";
import { asBoundAgent, byApiKey } from "./auth/caller.ts";
import { toolDatabase } from "./database.ts";
import { runMaintenance } from "./lifecycle/maintenance.ts";
import { loadToolAgentSettings } from "./settings.ts";
import { consumeMessages } from "./tasks/message-consumer.ts";
import { restartStaleTasks } from "./tasks/task-watchdog.ts";

const publicApp = createToolAgentApp(byApiKey);
const boundApp = createToolAgentApp(asBoundAgent);

export { ToolContainer } from "./containers/tool-container.ts";
export { ToolTaskWorkflow } from "./tasks/task-workflow.ts";

export class ToolAgentForAgent extends WorkerEntrypoint<ToolAgentBindings> {
  override fetch(request: Request): Response | Promise<Response> {
    return boundApp.fetch(request, this.env, this.ctx);
  }
}

export default {
  fetch: publicApp.fetch,
  // The Cron Trigger (wrangler.toml [triggers]): idle stops, LRU eviction, health checks.
  async scheduled(_controller, env) {
    const settings = loadToolAgentSettings(env);
    if (!settings.ok) {
      log.error("config.invalid", { problems: settings.problems, message: describeProblems(settings.problems) });
      return;
    }
    try {
      await runMaintenance(await toolDatabase(settings.settings), settings.settings, {
        code: env.TOOL_CODE,
        containers: env.TOOL_CONTAINERS,
        timeoutMs: 5_000,
        messages: env.TOOL_MESSAGES,
      });
    } catch (error) {
      // The database not answering skips this run; the next minute's run tries again.
      log.error("tool_agent.maintenance_failed", { error: (error as Error).name, message: (error as Error).message });
    }
    try {
      await restartStaleTasks(await toolDatabase(settings.settings), env.TOOL_TASKS, settings.settings.coding);
    } catch (error) {
      log.error("tool_agent.watchdog_failed", { error: (error as Error).name, message: (error as Error).message });
    }
  },
  // The message queue's consumer (wrangler.toml [[queues.consumers]]): tasks start here.
  async queue(batch, env) {
    const settings = loadToolAgentSettings(env);
    if (!settings.ok) {
      log.error("config.invalid", { problems: settings.problems, message: describeProblems(settings.problems) });
      batch.retryAll({ delaySeconds: 30 });
      return;
    }
    await consumeMessages(batch, { db: await toolDatabase(settings.settings), tasks: env.TOOL_TASKS, messages: env.TOOL_MESSAGES });
  },
} satisfies ExportedHandler<ToolAgentBindings>;
