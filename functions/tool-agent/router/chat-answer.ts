// The answers of POST /agent/chat: `{reply, tools, solution, task_id, next_steps}`, one shape
// per way a request matched (exactly a tool, some tools by their words, a composite, nothing),
// in the language the request was written in. Pure: the matching that chooses one is chat.ts.
import type { CompositeRow } from "../registry/composite-store.ts";
import type { ToolRow } from "../tool-types.ts";
import type { ReplyLanguage } from "./chat-terms.ts";
import { usageExample } from "./usage-example.ts";

export interface ChatTool {
  tool_id: string;
  name: string;
  description: string;
  reason: string;
  usage_example: { params: Record<string, unknown> };
}

export type CompositeSolution = { type: "composite_workflow" } & CompositeRow;

export interface ChatAnswer {
  /** How the request matched; the same four branches in every language. */
  match: "exact" | "fuzzy" | "composite" | "none";
  reply: string;
  tools: ChatTool[];
  solution: CompositeSolution | null;
  task_id: string | null;
  next_steps: string[];
}

const words = {
  en: {
    exact: (name: string) => `${name} is the tool you named; call it with POST /select_tool.`,
    exactReason: "its id or name is in your request",
    found: (n: number, name: string) => `Found ${n} tool${n === 1 ? "" : "s"} that may fit; ${name} matches best.`,
    matched: (terms: string[]) => `matches ${terms.map((t) => `"${t}"`).join(", ")}`,
    select: (id: string) => `POST /select_tool {"tool_id": "${id}", "params": {...}} (usage_example shows the params)`,
    compare: "compare the other candidates' descriptions if the first does not fit",
    composite: (name: string, n: number) => `${name} is done with ${n} registered tools, in ${n} steps; see solution.steps.`,
    step: (n: number, name: string) => `step ${n} of ${name}`,
    runSteps: "call each step's tool with POST /select_tool, in order, passing what a step returns to the next",
    none: "No registered tool matches this request.",
    noneNext: [
      "rephrase with the task's key words (e.g. what goes in and what comes out)",
      'POST /create_tool {"description": "..."} asks the coding agent to build one (needs the create scope)',
    ],
    created: "Submitted a task to create this tool; it usually takes seconds to a few minutes.",
    track: (id: string) => `GET /tasks/${id} shows its progress and, once completed, the new tool_id`,
    callNew: "then call the new tool with POST /select_tool (or over MCP)",
  },
  zh: {
    exact: (name: string) => `${name} 就是你指定的工具，请用 POST /select_tool 调用。`,
    exactReason: "请求中包含它的 ID 或名称",
    found: (n: number, name: string) => `找到 ${n} 个可能合适的工具，推荐使用 ${name}。`,
    matched: (terms: string[]) => `匹配「${terms.join("」「")}」`,
    select: (id: string) => `调用 POST /select_tool {"tool_id": "${id}", "params": {...}}（参数见 usage_example）`,
    compare: "如果第一个不合适，请比较其他候选工具的说明",
    composite: (name: string, n: number) => `${name} 需要 ${n} 个已注册的工具分 ${n} 步完成，见 solution.steps。`,
    step: (n: number, name: string) => `${name} 的第 ${n} 步`,
    runSteps: "按顺序用 POST /select_tool 调用每一步的工具，把上一步的返回值传给下一步",
    none: "没有已注册的工具能满足这个请求。",
    noneNext: [
      "换个说法，写出任务的关键词（输入什么、输出什么）",
      '用 POST /create_tool {"description": "..."} 让编码智能体创建一个（需要 create 权限）',
    ],
    created: "已提交工具创建任务，通常几秒到几分钟完成。",
    track: (id: string) => `用 GET /tasks/${id} 查询进度，完成后可得到新工具的 tool_id`,
    callNew: "然后用 POST /select_tool（或 MCP）调用新工具",
  },
} as const;

const chatTool = (tool: ToolRow, reason: string): ChatTool => ({
  tool_id: tool.tool_id,
  name: tool.name,
  description: tool.description,
  reason,
  usage_example: usageExample(tool.input_schema),
});

export function exactAnswer(tool: ToolRow, lang: ReplyLanguage): ChatAnswer {
  const w = words[lang];
  return {
    match: "exact",
    reply: w.exact(tool.name),
    tools: [chatTool(tool, w.exactReason)],
    solution: null,
    task_id: null,
    next_steps: [w.select(tool.tool_id)],
  };
}

export function fuzzyAnswer(hits: readonly { tool: ToolRow; matched: string[] }[], lang: ReplyLanguage): ChatAnswer {
  const w = words[lang];
  const first = hits[0]!.tool;
  return {
    match: "fuzzy",
    reply: w.found(hits.length, first.name),
    tools: hits.map(({ tool, matched }) => chatTool(tool, w.matched(matched))),
    solution: null,
    task_id: null,
    next_steps: [w.select(first.tool_id), ...(hits.length > 1 ? [w.compare] : [])],
  };
}

export function compositeAnswer(composite: CompositeRow, baseTools: readonly ToolRow[], lang: ReplyLanguage): ChatAnswer {
  const w = words[lang];
  return {
    match: "composite",
    reply: w.composite(composite.name, composite.base_tools.length),
    tools: baseTools.map((tool) => chatTool(tool, w.step(composite.base_tools.indexOf(tool.tool_id) + 1, composite.name))),
    solution: { type: "composite_workflow", ...composite },
    task_id: null,
    next_steps: [w.runSteps],
  };
}

export function noMatchAnswer(lang: ReplyLanguage): ChatAnswer {
  const w = words[lang];
  return { match: "none", reply: w.none, tools: [], solution: null, task_id: null, next_steps: [...w.noneNext] };
}

/** Nothing matched, and a task to create the tool was submitted. */
export function creationAnswer(taskId: string, lang: ReplyLanguage): ChatAnswer {
  const w = words[lang];
  return { match: "none", reply: w.created, tools: [], solution: null, task_id: taskId, next_steps: [w.track(taskId), w.callNew] };
}
