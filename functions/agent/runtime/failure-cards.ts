// Failure cards wait for the end of the run. TOOL_CALL_RESULT of a failed action carries no
// card (`card_deferred: true`); when the run ends, each failure no later call of the same
// action superseded gets its card as a CUSTOM "tool_card" event, and the records mark the
// others so history does not show them either (post-processing/superseded-failures.ts).

import type { PostProcessedToolCall, UiSchema } from "../post-processing/index.ts";
import { type ActionCall, supersededFailures } from "../post-processing/superseded-failures.ts";

export interface DeferredCard {
  toolCallId: string;
  messageId: string;
  uiSchema: UiSchema;
}

/** The action a project_cli call named, if any (an envelope error names none). */
function actionOf(processed: PostProcessedToolCall): string | undefined {
  const output = processed.toolAgentOutput;
  if (output.tool_name !== "project_cli") return undefined;
  const { module, method } = output.result;
  return module && method ? `${module}.${method}` : undefined;
}

export function failureCards() {
  const calls: ActionCall[] = [];
  const deferred: DeferredCard[] = [];
  return {
    /** The card TOOL_CALL_RESULT carries now: a failure's waits (null), any other is sent as it is. */
    cardNow(toolCallId: string, messageId: string, processed: PostProcessedToolCall): { uiSchema: UiSchema | null; deferred: boolean } {
      const failed = processed.toolAgentOutput.ui_hints?.kind === "action_failed";
      calls.push({ messageId, action: actionOf(processed), failed });
      if (!failed || !processed.uiSchema) return { uiSchema: processed.uiSchema, deferred: false };
      deferred.push({ toolCallId, messageId, uiSchema: processed.uiSchema });
      return { uiSchema: null, deferred: true };
    },
    /** At the end of the run: the cards that stand, and the message ids of failures superseded. */
    settle(): { shown: DeferredCard[]; superseded: Set<string> } {
      const superseded = supersededFailures(calls);
      return { shown: deferred.filter((card) => !superseded.has(card.messageId)), superseded };
    },
  };
}
