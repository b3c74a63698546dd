// The intent stage (router): one structured-output call, no tools. It may see the
// conversation; it names the objective and optional hints, and never resolves dates or
// proposes tool arguments (decision D9).
import { generateText, type LanguageModel, NoObjectGeneratedError, Output } from "ai";
import { z } from "zod";

export const RouterAgentOutput = z.object({
  objective: z.string().min(1).max(500).describe("what the user wants, in one sentence"),
  requires_tool: z.boolean().describe("whether answering needs data from the user's calendar, contacts or memory"),
  selected_skill: z.string().max(64).nullish().describe("calendar, contacts or memory, if one clearly applies"),
  intended_action: z.string().max(64).nullish().describe("the action card name, e.g. get_event, list_day, create_event"),
  known_entities: z
    .array(z.object({ type: z.string().max(32), value: z.string().max(200) }))
    .max(10)
    .nullish()
    .describe("ids, names, phones or emails stated in the conversation, verbatim"),
  known_time_range: z.string().max(200).nullish().describe("the time the user referred to, in their words (not resolved)"),
  missing_fields: z.array(z.string().max(64)).max(10).nullish().describe("what the user still has to tell us"),
});

export type RouterOutput = z.infer<typeof RouterAgentOutput>;

export const INTENT_INSTRUCTIONS = `You route requests for a calendar, contacts and memory assistant.
Read the conversation and describe the latest user request: its objective, whether answering needs the user's data (requires_tool), and, when clear, the skill (calendar, contacts, memory), the action card (list_day, list_range, get_event, create_event, update_event, delete_event, share_event, accept_invite, reject_invite), entities stated verbatim (event ids, names, phones, emails) and the time the user mentioned in their own words.
Do not resolve dates, do not compute times, do not propose tool arguments. Leave a hint out when unsure.`;

export interface IntentTurn {
  role: "user" | "assistant";
  text: string;
}

/** How many times an invalid structured answer is asked for again before falling back. */
export const INTENT_ATTEMPTS = 2;

export async function runIntentStage(options: {
  model: LanguageModel;
  conversation: readonly IntentTurn[];
  abortSignal?: AbortSignal;
}): Promise<{ output: RouterOutput; attempts: number; fallback: boolean; usage: { inputTokens?: number; outputTokens?: number } }> {
  const messages = options.conversation.map((turn) => ({ role: turn.role, content: turn.text }));
  for (let attempt = 1; attempt <= INTENT_ATTEMPTS; attempt++) {
    try {
      const result = await generateText({
        model: options.model,
        instructions: INTENT_INSTRUCTIONS,
        messages,
        output: Output.object({ schema: RouterAgentOutput }),
        maxRetries: 1,
        ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
      });
      return { output: result.output, attempts: attempt, fallback: false, usage: result.usage };
    } catch (error) {
      // Only a malformed answer is retried here; a model that cannot be reached fails the run.
      if (!NoObjectGeneratedError.isInstance(error)) throw error;
    }
  }
  // The router is an optimisation: without it the worker still has the request itself.
  const last = [...options.conversation].reverse().find((turn) => turn.role === "user")?.text ?? "";
  return { output: { objective: last.slice(0, 500) || "answer the user", requires_tool: true }, attempts: INTENT_ATTEMPTS, fallback: true, usage: {} };
}
