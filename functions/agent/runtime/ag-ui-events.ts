// Constructors for the AG-UI events a run emits. One place decides their exact shape, and each
// constructor returns the specific @ag-ui/core event type, so what the stream carries is
// checked against the protocol at compile time.
import {
  type CustomEvent,
  EventType,
  type RunErrorEvent,
  type RunFinishedEvent,
  type RunStartedEvent,
  type StepFinishedEvent,
  type StepStartedEvent,
  type TextMessageContentEvent,
  type TextMessageEndEvent,
  type TextMessageStartEvent,
  type ToolCallArgsEvent,
  type ToolCallEndEvent,
  type ToolCallResultEvent,
  type ToolCallStartEvent,
} from "@ag-ui/core";

/** Every event a run can emit. */
export type AgentEvent =
  | RunStartedEvent
  | RunFinishedEvent
  | RunErrorEvent
  | StepStartedEvent
  | StepFinishedEvent
  | CustomEvent
  | TextMessageStartEvent
  | TextMessageContentEvent
  | TextMessageEndEvent
  | ToolCallStartEvent
  | ToolCallArgsEvent
  | ToolCallEndEvent
  | ToolCallResultEvent;

/** Tokens one stage (or the whole run) used, as the provider reported them. */
export type TokenUsage = {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
};

/** What RUN_FINISHED carries as `result`. */
export type RunResult = {
  step_count: number;
  /** The run's tokens in all, and per stage that called a model. */
  usage: TokenUsage & { by_stage: Record<string, TokenUsage> };
};

const at = () => ({ timestamp: Date.now() });

export const agUi = {
  runStarted: (threadId: string, runId: string, metadata: Record<string, unknown>): RunStartedEvent => ({
    type: EventType.RUN_STARTED,
    threadId,
    runId,
    metadata,
    ...at(),
  }),
  runFinished: (threadId: string, runId: string, result: RunResult, outcome: "success" | "cancelled" = "success"): RunFinishedEvent => ({
    type: EventType.RUN_FINISHED,
    threadId,
    runId,
    outcome: { type: outcome },
    result,
    ...at(),
  }),
  runError: (code: string, message: string): RunErrorEvent => ({ type: EventType.RUN_ERROR, code, message, ...at() }),
  stepStarted: (stepName: string): StepStartedEvent => ({ type: EventType.STEP_STARTED, stepName, ...at() }),
  stepFinished: (stepName: string): StepFinishedEvent => ({ type: EventType.STEP_FINISHED, stepName, ...at() }),
  custom: (name: string, value: unknown): CustomEvent => ({ type: EventType.CUSTOM, name, value, ...at() }),
  textStart: (messageId: string): TextMessageStartEvent => ({ type: EventType.TEXT_MESSAGE_START, messageId, role: "assistant", ...at() }),
  textContent: (messageId: string, delta: string): TextMessageContentEvent => ({
    type: EventType.TEXT_MESSAGE_CONTENT,
    messageId,
    delta,
    ...at(),
  }),
  textEnd: (messageId: string): TextMessageEndEvent => ({ type: EventType.TEXT_MESSAGE_END, messageId, ...at() }),
  /** `parentMessageId` is the assistant message of the model step that made the call. */
  toolCallStart: (toolCallId: string, toolCallName: string, parentMessageId: string): ToolCallStartEvent => ({
    type: EventType.TOOL_CALL_START,
    toolCallId,
    toolCallName,
    parentMessageId,
    ...at(),
  }),
  toolCallArgs: (toolCallId: string, delta: string): ToolCallArgsEvent => ({ type: EventType.TOOL_CALL_ARGS, toolCallId, delta, ...at() }),
  toolCallEnd: (toolCallId: string): ToolCallEndEvent => ({ type: EventType.TOOL_CALL_END, toolCallId, ...at() }),
  toolCallResult: (messageId: string, toolCallId: string, content: string, metadata: Record<string, unknown>): ToolCallResultEvent => ({
    type: EventType.TOOL_CALL_RESULT,
    messageId,
    toolCallId,
    content,
    role: "tool",
    metadata,
    ...at(),
  }),
};

/** Sums per-stage usage (AI SDK fields, any of which a provider may leave out) into a RunResult's usage. */
export function runUsage(
  stages: Record<string, { inputTokens?: number | undefined; outputTokens?: number | undefined } | undefined>,
): RunResult["usage"] {
  const by_stage: Record<string, TokenUsage> = {};
  for (const [stage, usage] of Object.entries(stages)) {
    if (!usage) continue;
    const input = usage.inputTokens ?? 0;
    const output = usage.outputTokens ?? 0;
    by_stage[stage] = { input_tokens: input, output_tokens: output, total_tokens: input + output };
  }
  const sum = (key: keyof TokenUsage) => Object.values(by_stage).reduce((total, stage) => total + stage[key], 0);
  return { input_tokens: sum("input_tokens"), output_tokens: sum("output_tokens"), total_tokens: sum("total_tokens"), by_stage };
}
