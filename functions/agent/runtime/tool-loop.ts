// The execution stage's tool loop (decision D46): a model step, the tools it called, the next
// step with their results, until the model answers without calling a tool, the caller says stop,
// or the step budget is spent.
//
// Each model call is the AI SDK's own call primitive, streamLanguageModelCall: the function
// streamText runs for every step. It puts the prompt in the provider's shape, prepares the tools,
// parses and checks each tool call (an unknown tool or arguments that do not parse come back as
// an error for the model), and normalises usage. Around it, streamText layers a dozen streams and
// its bookkeeping; in workerd that cost 1.1 ms of CPU per step and 0.11 ms per streamed chunk,
// against 0.17 ms and 0.02 ms for the call alone (stage bench, docs/performance.md). This loop
// does what the run needs of the rest, with the SDK's rules: one retry of a retryable failure,
// tools run together once the model's step ends (and only if it ended with "stop" or
// "tool-calls"), results reported as each tool finishes, and the next step sent the messages
// streamText would send (step-messages.ts; test/unit/agent/tool-loop.test.ts holds the two side
// by side). What it leaves out, the run never used: tool approvals, provider-executed tools,
// generated files, prepareStep, stream retries, the SDK's telemetry and callbacks.
import type { SharedV4Warning } from "@ai-sdk/provider";
import {
  type LanguageModel,
  type LanguageModelUsage,
  type ModelMessage,
  NoOutputGeneratedError,
  experimental_streamLanguageModelCall as streamModelCall,
  type ToolExecutionOptions,
  type ToolSet,
} from "ai";
import { silenceDeadline } from "./model-deadline.ts";
import { withOneRetry } from "./model-retry.ts";
import { addUsage, NO_USAGE, StepContent, type ToolOutcome } from "./step-messages.ts";

export interface ToolLoopOptions {
  model: LanguageModel;
  instructions: string;
  messages: readonly ModelMessage[];
  /** Absent: the model may only answer. */
  tools?: ToolSet;
  /** Model steps at most; 1 when there are no tools. */
  maxSteps: number;
  /** Asked after a step whose tools all ran: true ends the loop there. */
  stopAfterStep?: () => boolean;
  temperature?: number;
  abortSignal: AbortSignal;
  /** A model call that sends nothing for this long has failed (model-deadline.ts); absent, no bound. */
  idleTimeoutMs?: number;
}

export type LoopPart =
  | { type: "start-step" }
  | { type: "text-delta"; text: string }
  | { type: "tool-call"; toolCallId: string; toolName: string; input: unknown }
  | (ToolOutcome & { input: unknown })
  | { type: "finish-step" }
  /** What the provider said about the request it was sent (unsupported settings and the like). */
  | { type: "warnings"; warnings: readonly SharedV4Warning[] }
  /** The model call failed, or its stream reported an error: the run stops reading here. */
  | { type: "error"; error: unknown }
  /** The loop ended: the usage of every step, and the messages every step added. */
  | { type: "finish"; usage: LanguageModelUsage; responseMessages: ModelMessage[] };

interface StepEnd {
  usage: LanguageModelUsage;
  messages: ModelMessage[];
  /** The model called tools, and every one of them ran: the loop may go on. */
  toolsRan: boolean;
}

export async function* toolLoop(options: ToolLoopOptions): AsyncGenerator<LoopPart, void> {
  let usage = NO_USAGE;
  const responseMessages: ModelMessage[] = [];
  for (let step = 1; ; step++) {
    const end = yield* modelStep(options, [...options.messages, ...responseMessages]);
    if (!end) return;
    usage = addUsage(usage, end.usage);
    responseMessages.push(...end.messages);
    if (!end.toolsRan || step >= options.maxSteps || options.stopAfterStep?.()) break;
  }
  yield { type: "finish", usage, responseMessages };
}

/** One model call and the tools it asked for. Undefined when the loop must end with an error. */
async function* modelStep(options: ToolLoopOptions, messages: ModelMessage[]): AsyncGenerator<LoopPart, StepEnd | undefined> {
  const { tools, abortSignal } = options;
  const content = new StepContent();
  const calls: Array<{ toolCallId: string; toolName: string; input: unknown }> = [];
  const outcomes: ToolOutcome[] = [];
  let finishReason = "other";
  let usage = NO_USAGE;
  let ended = false;
  let produced = false;
  let started = false;
  // The model's silence is bounded while it answers; the tools' own deadlines cover their time.
  const deadline = options.idleTimeoutMs === undefined ? undefined : silenceDeadline(options.idleTimeoutMs, abortSignal);
  const callSignal = deadline?.signal ?? abortSignal;
  try {
    // A cancel that came while the last step's tools ran: no further model call.
    abortSignal.throwIfAborted();
    const call = await withOneRetry(
      () =>
        streamModelCall({
          model: options.model,
          instructions: options.instructions,
          messages,
          ...(tools ? { tools } : {}),
          ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
          abortSignal: callSignal,
        }),
      { abortSignal: callSignal },
    );
    for await (const part of call.stream) {
      deadline?.heard();
      if (part.type === "model-call-start") {
        if (part.warnings.length > 0) yield { type: "warnings", warnings: part.warnings };
        continue;
      }
      // The step starts with the model's first part, as streamText starts it.
      if (!started) yield { type: "start-step" };
      started = true;
      switch (part.type) {
        case "text-start":
        case "reasoning-start":
          content.start(part.type === "text-start" ? "text" : "reasoning", part.id, part.providerMetadata);
          break;
        case "text-delta":
        case "reasoning-delta": {
          const kind = part.type === "text-delta" ? "text" : "reasoning";
          content.append(kind, part.id, part.text, part.providerMetadata);
          if (part.text.length > 0) produced = true;
          if (kind === "text") yield { type: "text-delta", text: part.text };
          break;
        }
        case "text-end":
        case "reasoning-end":
          content.end(part.type === "text-end" ? "text" : "reasoning", part.id, part.providerMetadata);
          break;
        case "tool-call":
          produced = true;
          content.toolCall(part);
          if (part.providerExecuted) break;
          calls.push(part);
          yield { type: "tool-call", toolCallId: part.toolCallId, toolName: part.toolName, input: part.input };
          break;
        case "tool-error": {
          // A call the SDK could not accept (an unknown tool, arguments that do not parse).
          const outcome: ToolOutcome = { type: "tool-error", toolCallId: part.toolCallId, toolName: part.toolName, error: part.error };
          outcomes.push(outcome);
          yield { ...outcome, input: part.input };
          break;
        }
        case "tool-input-delta":
          if (part.delta.length > 0) produced = true;
          break;
        case "file":
        case "reasoning-file":
          produced = true;
          break;
        case "model-call-end":
          ended = true;
          finishReason = part.finishReason;
          usage = part.usage;
          break;
        case "error":
          // The step still ends (its tools do not run); the run stops at this part.
          ended = true;
          finishReason = "error";
          yield { type: "error", error: deadline?.expired() ?? part.error };
          break;
        default:
          break;
      }
    }
    if (!ended && !produced) {
      yield {
        type: "error",
        error: new NoOutputGeneratedError({ message: "No output generated. The model stream ended without a finish chunk." }),
      };
      return undefined;
    }
    deadline?.stop();
    // Tools run once the model's step is complete, all at once; each result is reported as it comes.
    if (finishReason === "stop" || finishReason === "tool-calls") {
      const invalid = new Set(outcomes.map((outcome) => outcome.toolCallId));
      const runnable = calls.flatMap((call) => {
        const tool = invalid.has(call.toolCallId) ? undefined : ownTool(tools, call.toolName);
        return tool?.execute ? [runTool(call, tool.execute, messages, abortSignal)] : [];
      });
      for await (const outcome of inOrderOfCompletion(runnable)) {
        outcomes.push(outcome.outcome);
        yield { ...outcome.outcome, input: outcome.input };
      }
    }
  } catch (error) {
    // A call ended by its deadline fails with what the deadline says, not the abort it caused.
    yield { type: "error", error: deadline?.expired() ?? error };
    return undefined;
  } finally {
    deadline?.stop();
  }
  yield { type: "finish-step" };
  return {
    usage,
    messages: content.messages(outcomes),
    toolsRan: calls.length > 0 && outcomes.length === calls.length && finishReason !== "interrupted",
  };
}

/** A tool the model named, if it is one of ours (a name such as "constructor" is not). */
const ownTool = (tools: ToolSet | undefined, name: string) => (tools && Object.hasOwn(tools, name) ? tools[name] : undefined);

type Execute = NonNullable<ToolSet[string]["execute"]>;

async function runTool(
  call: { toolCallId: string; toolName: string; input: unknown },
  execute: Execute,
  messages: ModelMessage[],
  abortSignal: AbortSignal,
): Promise<{ outcome: ToolOutcome; input: unknown }> {
  const { toolCallId, toolName, input } = call;
  const options: ToolExecutionOptions<unknown> = { toolCallId, messages, abortSignal, context: undefined };
  try {
    const returned: unknown = await execute(input, options);
    // Our tools answer with a promise; an SDK tool may stream preliminary results: the last one counts.
    const output = isAsyncIterable(returned) ? await lastOf(returned) : returned;
    return { outcome: { type: "tool-result", toolCallId, toolName, output }, input };
  } catch (error) {
    return { outcome: { type: "tool-error", toolCallId, toolName, error }, input };
  }
}

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> =>
  value != null && typeof value === "object" && Symbol.asyncIterator in value;

async function lastOf(values: AsyncIterable<unknown>): Promise<unknown> {
  let last: unknown;
  for await (const value of values) last = value;
  return last;
}

/** The promises' values in the order they settle (none of them rejects). */
async function* inOrderOfCompletion<T>(promises: readonly Promise<T>[]): AsyncGenerator<T> {
  const pending = new Map(promises.map((promise, i) => [i, promise.then((value) => [i, value] as const)]));
  while (pending.size > 0) {
    const [i, value] = await Promise.race(pending.values());
    pending.delete(i);
    yield value;
  }
}
