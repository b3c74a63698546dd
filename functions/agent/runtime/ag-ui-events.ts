// Constructors for the AG-UI events a run emits. One place decides their exact shape.
import { type BaseEvent, EventType } from "@ag-ui/core";

const at = () => ({ timestamp: Date.now() });

export const agUi = {
  runStarted: (threadId: string, runId: string, metadata: Record<string, unknown>): BaseEvent => ({ type: EventType.RUN_STARTED, threadId, runId, metadata, ...at() }),
  runFinished: (threadId: string, runId: string, result: Record<string, unknown>, outcome: "success" | "cancelled" = "success"): BaseEvent => ({
    type: EventType.RUN_FINISHED,
    threadId,
    runId,
    outcome: { type: outcome },
    result,
    ...at(),
  }),
  runError: (code: string, message: string): BaseEvent => ({ type: EventType.RUN_ERROR, code, message, ...at() }),
  stepStarted: (stepName: string): BaseEvent => ({ type: EventType.STEP_STARTED, stepName, ...at() }),
  stepFinished: (stepName: string): BaseEvent => ({ type: EventType.STEP_FINISHED, stepName, ...at() }),
  custom: (name: string, value: unknown): BaseEvent => ({ type: EventType.CUSTOM, name, value, ...at() }),
  textStart: (messageId: string): BaseEvent => ({ type: EventType.TEXT_MESSAGE_START, messageId, role: "assistant", ...at() }),
  textContent: (messageId: string, delta: string): BaseEvent => ({ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta, ...at() }),
  textEnd: (messageId: string): BaseEvent => ({ type: EventType.TEXT_MESSAGE_END, messageId, ...at() }),
  toolCallStart: (toolCallId: string, toolCallName: string): BaseEvent => ({ type: EventType.TOOL_CALL_START, toolCallId, toolCallName, ...at() }),
  toolCallArgs: (toolCallId: string, delta: string): BaseEvent => ({ type: EventType.TOOL_CALL_ARGS, toolCallId, delta, ...at() }),
  toolCallEnd: (toolCallId: string): BaseEvent => ({ type: EventType.TOOL_CALL_END, toolCallId, ...at() }),
  toolCallResult: (messageId: string, toolCallId: string, content: string, metadata: Record<string, unknown>): BaseEvent => ({
    type: EventType.TOOL_CALL_RESULT,
    messageId,
    toolCallId,
    content,
    role: "tool",
    metadata,
    ...at(),
  }),
};
