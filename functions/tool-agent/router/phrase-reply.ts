// With a model configured, /agent/chat's reply is phrased by it: the rules still choose the
// tools, the solution and the next steps, and the model only rewrites the one sentence a person
// reads, in the request's language, naming only the tools the rules chose. Any failure (an
// error, no answer within TOOL_AGENT_MODEL_TIMEOUT_MS, an empty text) keeps the rules' reply.
import { generateText, type LanguageModel } from "ai";
import { log } from "../../lib/log.ts";
import type { ChatAnswer } from "./chat-answer.ts";
import type { ReplyLanguage } from "./chat-terms.ts";

export type PhrasedAnswer = ChatAnswer & { reply_source: "rules" | "model" };

const MAX_REPLY_CHARS = 1_000;

export function phrasingPrompt(answer: ChatAnswer, message: string, lang: ReplyLanguage): { system: string; prompt: string } {
  return {
    system: [
      "You answer for a registry of tools that other agents call over HTTP.",
      `Rewrite the draft reply to the request in ${lang === "zh" ? "Chinese" : "English"}, in at most two sentences.`,
      "Name only the tools listed, by their tool_id. Invent no tool, parameter or capability. Answer with the reply text only.",
    ].join(" "),
    prompt: JSON.stringify({
      request: message,
      match: answer.match,
      draft_reply: answer.reply,
      tools: answer.tools.map(({ tool_id, name, reason }) => ({ tool_id, name, reason })),
      ...(answer.solution ? { composite: { name: answer.solution.name, steps: answer.solution.steps.length } } : {}),
    }),
  };
}

export async function phraseReply(
  answer: ChatAnswer,
  message: string,
  lang: ReplyLanguage,
  model: LanguageModel | undefined,
  timeoutMs: number,
): Promise<PhrasedAnswer> {
  if (!model) return { ...answer, reply_source: "rules" };
  try {
    const { text } = await generateText({
      model,
      ...phrasingPrompt(answer, message, lang),
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(timeoutMs),
    });
    const reply = text.trim().slice(0, MAX_REPLY_CHARS);
    if (reply) return { ...answer, reply, reply_source: "model" };
  } catch (error) {
    log.warn("tool_agent.reply_not_phrased", { error: (error as Error).name, message: (error as Error).message.slice(0, 200) });
  }
  return { ...answer, reply_source: "rules" };
}
