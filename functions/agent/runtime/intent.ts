// The intent stage: one structured-output call, no tools. It may see the
// conversation; it names the objective and optional hints, and never resolves dates or
// proposes tool arguments (decision D18).
import { type JSONSchema7, jsonSchema, type LanguageModel, NoObjectGeneratedError, Output, streamText } from "ai";
import { z } from "zod";
import { truncateText } from "../../project_cli/fields.ts";
import { errorKind, providerStatus } from "./model-errors.ts";
import { toStrictJsonSchema } from "./strict-schema.ts";

export const IntentOutput = z.object({
  objective: z.string().min(1).max(500).describe("what the user wants, in one sentence"),
  requires_tool: z.boolean().describe("whether answering needs data from the user's calendar, contacts or memory"),
  selected_skill: z.string().max(64).nullish().describe("the skill that clearly applies (calendar, contacts, memory, tools), if one does"),
  intended_action: z.string().max(64).nullish().describe("the action card name, e.g. get_event, list_day, create_event"),
  known_entities: z
    .array(z.object({ type: z.string().max(32), value: z.string().max(200) }))
    .max(10)
    .nullish()
    .describe("ids, names, phones or emails stated in the conversation, verbatim"),
  known_time_range: z.string().max(200).nullish().describe("the time the user referred to, in their words (not resolved)"),
  missing_fields: z.array(z.string().max(64)).max(10).nullish().describe("what the user still has to tell us"),
  context_summary: z
    .string()
    .max(600)
    .nullish()
    .describe(
      "what earlier turns established that this request builds on: what 'it', 'that' or 'him' refers to, with its id and key facts",
    ),
});

export type IntentOutput = z.infer<typeof IntentOutput>;

/**
 * What the intent model is sent: IntentOutput under OpenAI's strict rules (every key
 * required, the optional ones nullable, no length keywords). Sent with `strict: true`, the AI
 * SDK's default for structured output; the length limits are checked on the answer by zod.
 */
export const INTENT_OUTPUT_WIRE_SCHEMA: JSONSchema7 = toStrictJsonSchema(
  z.toJSONSchema(IntentOutput, { target: "draft-7" }) as JSONSchema7,
);

const intentOutputSchema = jsonSchema<IntentOutput>(INTENT_OUTPUT_WIRE_SCHEMA, {
  validate: (value) => {
    const parsed = IntentOutput.safeParse(value);
    return parsed.success ? { success: true, value: parsed.data } : { success: false, error: parsed.error };
  },
});

/**
 * The structured output, parsed once when the answer is complete. Nobody reads the partial
 * objects of the intent answer, and the SDK would parse the JSON so far on every streamed
 * chunk to build them (most of the stage's CPU).
 */
const intentOutput: ReturnType<typeof Output.object<IntentOutput>> = {
  ...Output.object({ schema: intentOutputSchema }),
  parsePartialOutput: async () => undefined,
};

export const INTENT_INSTRUCTIONS = `You route requests for a calendar, contacts and memory assistant.
Read the conversation and describe the latest user request: its objective, whether answering needs the user's data (requires_tool), and, when clear, the skill (calendar, contacts, memory), the action card (list_day, list_range, get_event, create_event, update_event, delete_event, share_event, list_invitations, accept_invite, reject_invite), entities stated verbatim (event ids, names, phones, emails) and the time the user mentioned in their own words.
When the request refers to something from earlier turns ("move it", "share that with Bob", "the second one"), say in context_summary what it refers to, with the ids and facts the earlier turns give (event_id, title, time), and put those ids in known_entities: the next stage does not see the conversation.
Do not resolve dates, do not compute times, do not propose tool arguments. Leave a hint out when unsure.`;

export interface IntentTurn {
  role: "user" | "assistant";
  text: string;
}

/** How many times an invalid structured answer is asked for again before falling back. */
export const INTENT_ATTEMPTS = 2;

/** Why the intent stage gave no hints: logged, never shown to the user. */
export interface IntentFallback {
  reason: "malformed_output" | "model_error";
  /** The provider's HTTP status, when the failure was an HTTP answer. */
  status?: number;
  /** The error's class name (never its message, which may quote the provider). */
  error: string;
}

export interface IntentResult {
  output: IntentOutput;
  attempts: number;
  /** Present when the hints are absent because the stage failed. */
  fallback?: IntentFallback;
  usage: { inputTokens?: number; outputTokens?: number };
}

/**
 * The intent stage is an optimisation: whatever goes wrong in it (a provider that refuses the
 * schema, an outage after the SDK's retries, an answer that does not parse), the run goes on
 * without hints. Only a cancel ends the run here: it rethrows, so the run stops as cancelled.
 */
export async function runIntentStage(options: {
  model: LanguageModel;
  conversation: readonly IntentTurn[];
  abortSignal?: AbortSignal;
}): Promise<IntentResult> {
  const messages = options.conversation.map((turn) => ({ role: turn.role, content: turn.text }));
  let fallback: IntentFallback = { reason: "malformed_output", error: "NoObjectGeneratedError" };
  let attempts = 0;
  while (attempts < INTENT_ATTEMPTS) {
    attempts++;
    try {
      // Streamed, like the execution stage: one AI SDK entry point for both stages keeps the
      // Worker's bundle within its budget (generateText alone is about 5 KiB gzip).
      const result = streamText({
        model: options.model,
        instructions: INTENT_INSTRUCTIONS,
        messages,
        output: intentOutput,
        maxRetries: 1,
        ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
        onError: () => {}, // reported below as the fallback's reason; the default would log the provider's body
      });
      // A failed call arrives as an error part; the answer is parsed once the stream ends.
      for await (const part of result.fullStream) if (part.type === "error") throw part.error;
      return { output: await result.output, attempts, usage: await result.usage };
    } catch (error) {
      if (options.abortSignal?.aborted) throw error;
      // A malformed answer is asked for once more; a failed call was already retried by the SDK.
      if (NoObjectGeneratedError.isInstance(error)) continue;
      const status = providerStatus(error);
      fallback = { reason: "model_error", error: errorKind(error), ...(status !== undefined ? { status } : {}) };
      break;
    }
  }
  // Without hints the worker still has the request itself.
  const last = [...options.conversation].reverse().find((turn) => turn.role === "user")?.text ?? "";
  return { output: { objective: truncateText(last, 500) || "answer the user", requires_tool: true }, attempts, fallback, usage: {} };
}
