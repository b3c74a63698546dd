// Constructors for the AG-UI events a run emits. One place decides their exact shape, and each
// constructor returns the specific @ag-ui/core event type, so what the stream carries is
// checked against the protocol at compile time.
import {
  aggregateTokenUsage,
  type CustomEvent,
  EventType,
  type TokenUsage as ProtocolTokenUsage,
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
  tokenUsageFromAiSdkUsage,
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

/** A run's last event: nothing follows RUN_FINISHED or RUN_ERROR. */
export const isTerminalEvent = (event: AgentEvent): event is RunFinishedEvent | RunErrorEvent =>
  event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR;

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
  runFinished: (
    threadId: string,
    runId: string,
    result: RunResult,
    usage: ProtocolTokenUsage[],
    outcome: "success" | "cancelled" = "success",
  ): RunFinishedEvent => ({
    type: EventType.RUN_FINISHED,
    threadId,
    runId,
    outcome: { type: outcome },
    result,
    ...(usage.length > 0 ? { usage } : {}),
    ...at(),
  }),
  /** `usage`: what the run's model calls cost before it failed, when any was reported. */
  runError: (code: string, message: string, usage: ProtocolTokenUsage[] = []): RunErrorEvent => ({
    type: EventType.RUN_ERROR,
    code,
    message,
    ...(usage.length > 0 ? { usage } : {}),
    ...at(),
  }),
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

/** A stage's usage as the AI SDK reports it; a provider may leave any count out. */
export type StageUsage = { inputTokens?: number | undefined; outputTokens?: number | undefined } | undefined;

/** Sums per-stage usage into a RunResult's usage. */
export function runUsage(stages: Record<string, StageUsage>): RunResult["usage"] {
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

/**
 * The run's usage in the protocol's own form (`usage` on RUN_FINISHED and RUN_ERROR): one entry
 * per provider and model, so a run whose stages use different models keeps them apart.
 * `modelOf` names the provider and model that served a stage.
 */
export function protocolUsage(
  stages: Record<string, StageUsage>,
  modelOf: (stage: string) => { provider: string; model: string },
): ProtocolTokenUsage[] {
  const entries = Object.entries(stages).flatMap(([stage, usage]) => {
    const entry = usage && tokenUsageFromAiSdkUsage(usage, modelOf(stage));
    return entry ? [entry] : [];
  });
  return aggregateTokenUsage(entries);
}
