// The intent stage: one structured-output call, no tools. It may see the
// conversation; it names the objective and optional hints, and never resolves dates or
// proposes tool arguments (decision D18).
import type { LanguageModelV4, LanguageModelV4Prompt, LanguageModelV4Usage } from "@ai-sdk/provider";
import type { JSONSchema7 } from "ai";
import { z } from "zod";
import { truncateText } from "../../project_cli/fields.ts";
import { silenceDeadline } from "./model-deadline.ts";
import { errorKind, providerStatus } from "./model-errors.ts";
import { withOneRetry } from "./model-retry.ts";
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
 * required, the optional ones nullable, no length keywords). Sent with `strict: true`, the OpenAI
 * provider's default for a JSON response format; the length limits are checked on the answer by zod.
 */
export const INTENT_OUTPUT_WIRE_SCHEMA: JSONSchema7 = toStrictJsonSchema(
  z.toJSONSchema(IntentOutput, { target: "draft-7" }) as JSONSchema7,
);

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
  usage: { inputTokens?: number; outputTokens?: number; totalTokens?: number };
}

/** The answer was not an IntentOutput: asked for once more, then the stage falls back. */
class MalformedIntent extends Error {
  override name = "MalformedIntent";
}

/**
 * One structured-output call, made on the model itself (LanguageModelV4.doStream) rather than
 * through streamText: the stage reads one JSON answer and needs none of streamText's machinery,
 * which cost about 2.6 ms of Worker CPU per run here. What streamText did for it is done here:
 * the prompt in the provider's shape, the JSON response format (the OpenAI provider sends it
 * strict, as before), one retry with the SDK's rules (model-retry.ts), and the usage.
 */
async function askForIntent(
  model: LanguageModelV4,
  prompt: LanguageModelV4Prompt,
  abortSignal: AbortSignal | undefined,
  idleTimeoutMs: number | undefined,
) {
  // A model that goes silent fails the call (model-deadline.ts), and with it the stage's hints.
  const deadline = idleTimeoutMs === undefined ? undefined : silenceDeadline(idleTimeoutMs, abortSignal);
  const signal = deadline?.signal ?? abortSignal;
  let text = "";
  let usage: IntentResult["usage"] = {};
  try {
    const { stream } = await withOneRetry(
      () =>
        model.doStream({
          prompt,
          responseFormat: { type: "json", schema: INTENT_OUTPUT_WIRE_SCHEMA },
          ...(signal ? { abortSignal: signal } : {}),
        }),
      signal ? { abortSignal: signal } : {},
    );
    const reader = stream.getReader();
    for (;;) {
      const { done, value: part } = await reader.read();
      if (done) break;
      deadline?.heard();
      if (part.type === "text-delta") text += part.delta;
      else if (part.type === "error") throw part.error;
      else if (part.type === "finish") usage = tokenCounts(part.usage);
    }
  } catch (error) {
    throw deadline?.expired() ?? error;
  } finally {
    deadline?.stop();
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new MalformedIntent("the answer is not JSON");
  }
  const parsed = IntentOutput.safeParse(value);
  if (!parsed.success) throw new MalformedIntent("the answer is not an IntentOutput");
  return { output: parsed.data, usage };
}

/** The counts as the AI SDK reports them (asLanguageModelUsage): the total is the sum of what was reported. */
function tokenCounts(usage: LanguageModelV4Usage): IntentResult["usage"] {
  const input = usage.inputTokens.total;
  const output = usage.outputTokens.total;
  return {
    inputTokens: input,
    outputTokens: output,
    totalTokens: input === undefined && output === undefined ? undefined : (input ?? 0) + (output ?? 0),
  };
}

/**
 * The intent stage is an optimisation: whatever goes wrong in it (a provider that refuses the
 * schema, an outage after one retry, an answer that does not parse), the run goes on
 * without hints. Only a cancel ends the run here: it rethrows, so the run stops as cancelled.
 */
export async function runIntentStage(options: {
  model: LanguageModelV4;
  conversation: readonly IntentTurn[];
  abortSignal?: AbortSignal;
  /** A model call that sends nothing for this long has failed (model-deadline.ts); absent, no bound. */
  idleTimeoutMs?: number;
}): Promise<IntentResult> {
  const prompt: LanguageModelV4Prompt = [
    { role: "system", content: INTENT_INSTRUCTIONS },
    ...options.conversation.map((turn) => ({ role: turn.role, content: [{ type: "text" as const, text: turn.text }] })),
  ];
  let fallback: IntentFallback = { reason: "malformed_output", error: "MalformedIntent" };
  let attempts = 0;
  while (attempts < INTENT_ATTEMPTS) {
    attempts++;
    try {
      const answer = await askForIntent(options.model, prompt, options.abortSignal, options.idleTimeoutMs);
      return { ...answer, attempts };
    } catch (error) {
      if (options.abortSignal?.aborted) throw error;
      // A malformed answer is asked for once more; a failed call was already retried.
      if (error instanceof MalformedIntent) continue;
      const status = providerStatus(error);
      fallback = { reason: "model_error", error: errorKind(error), ...(status !== undefined ? { status } : {}) };
      break;
    }
  }
  // Without hints the worker still has the request itself.
  const last = [...options.conversation].reverse().find((turn) => turn.role === "user")?.text ?? "";
  return { output: { objective: truncateText(last, 500) || "answer the user", requires_tool: true }, attempts, fallback, usage: {} };
}
