// The offline demo model: lets `npm run dev` drive the real pipeline end to end with no key
// and no network. It is a deterministic script, not a language model, and says so in every
// answer: route to calendar/list_day, read the calendar skill, call calendar.read for today
// (taken from USER_CONTEXT_JSON), then summarise what came back.
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from "@ai-sdk/provider";

export const DEMO_MODEL_ID = "offline-demo";
const LABEL = "[offline demo model]";

const usage: LanguageModelV4Usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

interface ToolOutcome {
  toolName: string;
  value: unknown;
}

function systemText(prompt: LanguageModelV4Prompt): string {
  return prompt.flatMap((message) => (message.role === "system" ? [message.content] : [])).join("\n");
}

function toolOutcomes(prompt: LanguageModelV4Prompt): ToolOutcome[] {
  return prompt.flatMap((message) =>
    message.role === "tool"
      ? message.content.flatMap((part) =>
          part.type === "tool-result" ? [{ toolName: part.toolName, value: "value" in part.output ? part.output.value : undefined }] : [],
        )
      : [],
  );
}

function lastUserText(prompt: LanguageModelV4Prompt): string {
  const user = [...prompt].reverse().find((message) => message.role === "user");
  if (user?.role !== "user") return "";
  return user.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join(" ");
}

/** The demo's answers, in the request's language (USER_CONTEXT_JSON.locale). */
const ANSWERS = {
  en: {
    label: LABEL,
    unreadable: "I could not read the calendar just now.",
    nothing: (date: string) => `You have nothing scheduled on ${date}.`,
    events: (date: string, count: number) => `On ${date} you have ${count} event${count === 1 ? "" : "s"}:`,
    noModel: "I have no live model, so I can only show today's calendar.",
  },
  zh: {
    label: "[离线演示模型]",
    unreadable: "暂时无法读取日历。",
    nothing: (date: string) => `${date} 没有安排。`,
    events: (date: string, count: number) => `${date} 你有 ${count} 个日程：`,
    noModel: "没有可用的在线模型，只能显示今天的日历。",
  },
} as const;

function describeDay(result: unknown, words: (typeof ANSWERS)[keyof typeof ANSWERS]): string {
  const data =
    (result as { ok?: boolean; data?: { date?: string; items?: Array<{ title: string; start_at: string; end_at: string | null }> } }) ?? {};
  if (!data.ok || !data.data?.items) return `${words.label} ${words.unreadable}`;
  const { date = "", items } = data.data;
  if (items.length === 0) return `${words.label} ${words.nothing(date)}`;
  const lines = items.map((item) => `- ${item.title}: ${item.start_at.slice(11, 16)}${item.end_at ? `-${item.end_at.slice(11, 16)}` : ""}`);
  return `${words.label} ${words.events(date, items.length)}\n${lines.join("\n")}`;
}

/** Chooses the next move from what the conversation already holds. */
function nextMove(options: LanguageModelV4CallOptions): { toolCall?: { toolName: string; input: unknown }; text?: string } {
  const outcomes = toolOutcomes(options.prompt);
  const toolsOffered = (options.tools?.length ?? 0) > 0;
  const read = outcomes.find((outcome) => outcome.toolName === "project_cli");
  const system = systemText(options.prompt);
  const words = /"locale":"zh"/.test(system) ? ANSWERS.zh : ANSWERS.en;
  if (read || !toolsOffered) return { text: read ? describeDay(read.value, words) : `${words.label} ${words.noModel}` };
  // Always reads the skill index first, so a demo run shows progressive disclosure at work.
  if (!outcomes.some((outcome) => outcome.toolName === "view_skill_file")) {
    return { toolCall: { toolName: "view_skill_file", input: { path: "calendar/SKILL.md" } } };
  }
  const time = /"system_time_local":"([^"]+)"/.exec(system)?.[1] ?? new Date().toISOString();
  const timezone = /"timezone_effective":"([^"]+)"/.exec(system)?.[1] ?? "UTC";
  return {
    toolCall: {
      toolName: "project_cli",
      input: { module: "calendar", method: "read", input: { mode: "day", date: time.slice(0, 10), timezone } },
    },
  };
}

function streamOf(parts: LanguageModelV4StreamPart[]): ReadableStream<LanguageModelV4StreamPart> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

export function demoModel(): LanguageModelV4 {
  let calls = 0;
  return {
    specificationVersion: "v4",
    provider: "offline-demo",
    modelId: DEMO_MODEL_ID,
    supportedUrls: {},
    async doGenerate(): Promise<never> {
      throw new Error("the offline demo model only streams");
    },
    async doStream(options) {
      // The intent stage asks for JSON: a fixed, valid intent answer. The worker gets the rest.
      const move =
        options.responseFormat?.type === "json"
          ? {
              text: JSON.stringify({
                objective: lastUserText(options.prompt).slice(0, 200) || "show today's calendar",
                requires_tool: true,
                selected_skill: "calendar",
                intended_action: "list_day",
              }),
            }
          : nextMove(options);
      const id = `demo-${++calls}`;
      const parts: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }];
      if (move.toolCall) {
        parts.push({
          type: "tool-call",
          toolCallId: `call-${id}`,
          toolName: move.toolCall.toolName,
          input: JSON.stringify(move.toolCall.input),
        });
        parts.push({ type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage });
      } else {
        parts.push({ type: "text-start", id });
        // Word by word, so the stream shows incremental delivery like a real model.
        for (const word of (move.text ?? "").split(/(?<= )/)) parts.push({ type: "text-delta", id, delta: word });
        parts.push({ type: "text-end", id }, { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage });
      }
      return { stream: streamOf(parts) };
    },
  };
}
