// The Tool Agent tab: find tools, run one, and ask for a tool that does not exist yet and watch
// its task until it ends. It calls the Tool Agent's own HTTP API with an API key the person
// pastes (or passes in the page's #tool_key= fragment, which never reaches a server); the Tool
// Agent must list this page's origin in TOOL_AGENT_CORS_ORIGINS.
import { byId, h } from "./dom.ts";
import { requestJson } from "./http.ts";
import { isRecord } from "./values.ts";

const KEY = "playground.tool-key";
const URL_KEY = "playground.tool-agent-url";
const POLL_MS = 1_000;
const WATCH_LIMIT_MS = 10 * 60_000;
const OPEN = new Set(["pending", "running"]);

const str = (value: unknown) => (typeof value === "string" ? value : value === undefined || value === null ? "" : JSON.stringify(value));

export class ToolAgentTab {
  private readonly url = byId<HTMLInputElement>("tool-agent-url");
  private readonly key = byId<HTMLInputElement>("tool-key");
  private readonly results = byId("tool-results");
  private readonly runOutput = byId("tool-run-output");
  private readonly task = byId("task-view");
  private watching = 0;

  constructor(defaultUrl: string | null) {
    this.url.value = localStorage.getItem(URL_KEY) ?? defaultUrl ?? "";
    this.key.value = localStorage.getItem(KEY) ?? "";
    const fragment = new URLSearchParams(location.hash.slice(1));
    const fromFragment = fragment.get("tool_key");
    if (fromFragment) {
      this.key.value = fromFragment;
      fragment.delete("tool_key");
      history.replaceState(null, "", `${location.pathname}${location.search}${fragment.size > 0 ? `#${fragment}` : ""}`);
    }
    this.keep();
    this.url.addEventListener("change", () => this.keep());
    this.key.addEventListener("change", () => this.keep());
    byId("tool-search").addEventListener("submit", (event) => {
      event.preventDefault();
      void this.search();
    });
    byId("tool-run").addEventListener("submit", (event) => {
      event.preventDefault();
      void this.run();
    });
    byId("tool-create").addEventListener("submit", (event) => {
      event.preventDefault();
      void this.create();
    });
  }

  private keep(): void {
    localStorage.setItem(URL_KEY, this.url.value.trim());
    if (this.key.value.trim()) localStorage.setItem(KEY, this.key.value.trim());
    else localStorage.removeItem(KEY);
  }

  private call(path: string, body?: unknown) {
    return requestJson<unknown>(`${this.url.value.trim().replace(/\/+$/, "")}${path}`, { token: this.key.value.trim(), body });
  }

  private error(target: HTMLElement, code: string, message: string): void {
    target.replaceChildren(h("div", { class: "run-error", data: { code } }, h("strong", { text: code }), ` ${message}`));
  }

  private async search(): Promise<void> {
    const keyword = byId<HTMLInputElement>("tool-keyword").value.trim();
    const answer = await this.call("/search_tools", { keyword, limit: 10 });
    if (!answer.ok) return this.error(this.results, answer.code, answer.message);
    const tools = isRecord(answer.body) && Array.isArray(answer.body.tools) ? answer.body.tools.filter(isRecord) : [];
    this.results.replaceChildren(
      tools.length === 0 ? h("p", { text: "no tool matches" }) : "",
      ...tools.map((tool) =>
        h(
          "li",
          { data: { toolId: str(tool.tool_id) } },
          h("button", { attrs: { type: "button" }, text: "use", on: { click: () => this.choose(tool) } }),
          h("code", { text: str(tool.tool_id) }),
          ` ${str(tool.name)} — ${str(tool.description)}`,
        ),
      ),
    );
  }

  /** Fills the run form with the tool and a params object naming its required parameters. */
  private choose(tool: Record<string, unknown>): void {
    byId<HTMLInputElement>("tool-id").value = str(tool.tool_id);
    const schema = isRecord(tool.input_schema) ? tool.input_schema : {};
    const required = Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === "string") : [];
    byId<HTMLTextAreaElement>("tool-params").value = JSON.stringify(Object.fromEntries(required.map((name) => [name, null])), null, 2);
  }

  private async run(): Promise<void> {
    let params: unknown;
    try {
      params = JSON.parse(byId<HTMLTextAreaElement>("tool-params").value || "{}");
    } catch {
      return this.error(this.runOutput, "INVALID_JSON", "params must be a JSON object");
    }
    const answer = await this.call("/select_tool", { tool_id: byId<HTMLInputElement>("tool-id").value.trim(), params });
    if (!answer.ok) return this.error(this.runOutput, answer.code, answer.message);
    this.runOutput.replaceChildren(h("pre", { class: "tool-answer", text: JSON.stringify(answer.body, null, 2) }));
  }

  private async create(): Promise<void> {
    const description = byId<HTMLInputElement>("tool-description").value.trim();
    const answer = await this.call("/create_tool", { description });
    if (!answer.ok) return this.error(this.task, answer.code, answer.message);
    const taskId = isRecord(answer.body) ? str(answer.body.task_id) : "";
    await this.watch(taskId);
  }

  /** Polls the task until it ends, at most WATCH_LIMIT_MS; a newer watch stops an older one. */
  private async watch(taskId: string): Promise<void> {
    const watch = ++this.watching;
    const until = Date.now() + WATCH_LIMIT_MS;
    while (watch === this.watching && Date.now() < until) {
      const answer = await this.call(`/tasks/${encodeURIComponent(taskId)}`);
      if (!answer.ok) return this.error(this.task, answer.code, answer.message);
      const task = isRecord(answer.body) ? answer.body : {};
      this.drawTask(taskId, task);
      if (!OPEN.has(str(task.status))) return;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  private drawTask(taskId: string, task: Record<string, unknown>): void {
    const log = Array.isArray(task.log) ? task.log.filter(isRecord) : [];
    this.task.replaceChildren(
      h(
        "div",
        { class: "task", data: { taskId, status: str(task.status) } },
        h("p", {}, h("code", { text: taskId }), ` ${str(task.status)}`, task.tool_id ? ` → ${str(task.tool_id)}` : ""),
        h("p", { class: "task-progress", text: str(task.progress) }),
        task.error ? h("div", { class: "run-error", text: str(task.error) }) : "",
        h(
          "ol",
          { class: "task-log" },
          ...log.map(({ at, kind, ...detail }) =>
            h("li", {}, h("code", { text: str(kind) }), ` ${JSON.stringify(detail)}`, h("small", { text: ` ${str(at)}` })),
          ),
        ),
      ),
    );
  }
}
