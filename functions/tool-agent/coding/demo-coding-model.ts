// The offline demo coding model: lets `npm run dev` and the tests show a task from request to an
// active tool with no key and no network. It is a deterministic script, not a language model,
// and says so: it picks one of a few templates (demo-templates.ts) by the task's words, writes
// the module and its tests, runs them, and registers the tool. For a repair or a deploy it reads
// tool.json first and uses what the workspace holds. It does not debug: failing tests end its run.
import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4Content, LanguageModelV4Prompt } from "@ai-sdk/provider";
import { DEMO_TEMPLATES, type DemoTemplate, templateFor } from "./demo-templates.ts";

export const DEMO_CODING_MODEL_ID = "offline-demo-coding";
const LABEL = "[offline demo coding model]";

interface Outcome {
  toolName: string;
  input: Record<string, unknown>;
  output: Record<string, unknown>;
}

function outcomes(prompt: LanguageModelV4Prompt): Outcome[] {
  const inputs = new Map<string, Record<string, unknown>>();
  const done: Outcome[] = [];
  for (const message of prompt) {
    if (message.role === "assistant") {
      for (const part of message.content) if (part.type === "tool-call") inputs.set(part.toolCallId, part.input as Record<string, unknown>);
    }
    if (message.role === "tool") {
      for (const part of message.content) {
        if (part.type !== "tool-result") continue;
        const output = part.output.type === "json" ? (part.output.value as Record<string, unknown>) : { status: "error" };
        done.push({ toolName: part.toolName, input: inputs.get(part.toolCallId) ?? {}, output });
      }
    }
  }
  return done;
}

function task(prompt: LanguageModelV4Prompt): Record<string, string | undefined> {
  const user = prompt.find((message) => message.role === "user");
  const textPart = user?.role === "user" ? user.content.find((part) => part.type === "text") : undefined;
  try {
    return JSON.parse(textPart?.type === "text" ? textPart.text : "{}");
  } catch {
    return {};
  }
}

type Move = { call: { toolName: string; input: Record<string, unknown> } } | { text: string };

/** The registration the model sends: the template's (or tool.json's) fields under the id it chose. */
function registration(template: DemoTemplate, toolId: string, manifest?: Record<string, unknown>): Record<string, unknown> {
  return {
    tool_id: toolId,
    name: manifest?.name ?? template.name,
    description: (manifest?.description as string | undefined) ?? `${template.description} (built by the offline demo coding model)`,
    category: manifest?.category ?? template.category,
    input_schema: manifest?.input_schema ?? template.input_schema,
    output_schema: manifest?.output_schema ?? template.output_schema,
  };
}

/** tool_id, then tool_id_2, _3... while the registry says the id is taken. */
function nextId(base: string, registrations: Outcome[]): string {
  const taken = registrations.filter((r) => String(r.output.message ?? "").includes("already a registered tool")).length;
  return taken === 0 ? base : `${base}_${taken + 1}`.slice(0, 64);
}

export function nextCodingMove(options: LanguageModelV4CallOptions): Move {
  const spec = task(options.prompt);
  const done = outcomes(options.prompt);
  const last = done.at(-1);
  const used = (name: string) => done.filter((outcome) => outcome.toolName === name);
  const needsManifest = spec.task === "repair_tool" || spec.task === "github_deploy";
  const manifestRead = used("read_file").find((r) => r.input.path === "tool.json");
  if (needsManifest && !manifestRead) return { call: { toolName: "read_file", input: { path: "tool.json" } } };
  const manifest =
    manifestRead?.output.status === "ok" ? (JSON.parse(String(manifestRead.output.content)) as Record<string, unknown>) : undefined;

  const registered = used("register_tool");
  if (last?.toolName === "register_tool") {
    if (last.output.status === "active") return { text: `${LABEL} ${String(last.input.tool_id)} is registered and active.` };
    if (!String(last.output.message ?? "").includes("already a registered tool") || registered.length >= 5) {
      return { text: `${LABEL} registration failed: ${String(last.output.message)}` };
    }
  }
  const ranTests = used("run_tests").at(-1);
  if (ranTests && ranTests.output.status !== "passed") {
    return { text: `${LABEL} the tests do not pass and this demo model does not debug: ${JSON.stringify(ranTests.output).slice(0, 300)}` };
  }

  // A deploy registers what the repository holds; it writes nothing.
  const template =
    spec.task === "github_deploy"
      ? undefined
      : templateFor(
          `${spec.description ?? ""} ${String(manifest?.description ?? "")} ${String(manifest?.name ?? "")} ${spec.tool_id ?? ""}`,
        );
  if (spec.task !== "github_deploy" && !template) {
    return { text: `${LABEL} I can only build these tools offline: ${DEMO_TEMPLATES.map((t) => t.tool_id).join(", ")}.` };
  }
  if (template && !used("write_file").some((w) => w.input.path === "tool.js")) {
    return { call: { toolName: "write_file", input: { path: "tool.js", content: template.module } } };
  }
  if (template && !used("write_file").some((w) => w.input.path === "tests.json")) {
    return { call: { toolName: "write_file", input: { path: "tests.json", content: JSON.stringify(template.tests, null, 2) } } };
  }
  if (!ranTests) return { call: { toolName: "run_tests", input: {} } };

  const base = spec.tool_id ?? (manifest?.tool_id as string | undefined) ?? template?.tool_id ?? "demo_tool";
  const toolId = spec.task === "repair_tool" ? base : nextId(base, registered);
  const fields = template ? registration(template, toolId, manifest) : { ...manifest, tool_id: toolId };
  return { call: { toolName: "register_tool", input: fields } };
}

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

export function demoCodingModel(): LanguageModelV4 {
  let calls = 0;
  return {
    specificationVersion: "v4",
    provider: "offline-demo",
    modelId: DEMO_CODING_MODEL_ID,
    supportedUrls: {},
    async doGenerate(options) {
      const move = nextCodingMove(options);
      const content: LanguageModelV4Content[] =
        "call" in move
          ? [{ type: "tool-call", toolCallId: `demo-${++calls}`, toolName: move.call.toolName, input: JSON.stringify(move.call.input) }]
          : [{ type: "text", text: move.text }];
      return {
        content,
        finishReason: "call" in move ? { unified: "tool-calls", raw: "tool_calls" } : { unified: "stop", raw: "stop" },
        usage,
        warnings: [],
      };
    },
    async doStream(): Promise<never> {
      throw new Error("the offline demo coding model only generates");
    },
  };
}
