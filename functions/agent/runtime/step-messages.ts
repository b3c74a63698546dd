// What one model step leaves for the next: the assistant's message (its text, reasoning and tool
// calls, in the order they streamed) and the tool message with every result, in the order the
// calls were made. The shapes are the AI SDK's own (its streamText builds the same messages from
// the same parts), so the provider receives the conversation it would receive from streamText;
// test/unit/agent/tool-loop.test.ts holds the two side by side.
import { getErrorMessage } from "@ai-sdk/provider";
import type { AssistantModelMessage, LanguageModelUsage, ModelMessage, ProviderMetadata, ToolModelMessage, ToolResultPart } from "ai";

type AssistantPart = Exclude<AssistantModelMessage["content"], string>[number];
type TextPart = Extract<AssistantPart, { type: "text" }>;
type ReasoningPart = Extract<AssistantPart, { type: "reasoning" }>;
type Metadata = ProviderMetadata | undefined;

/** A tool's outcome in a step: what it returned, or why it did not run or failed. */
export type ToolOutcome =
  | { type: "tool-result"; toolCallId: string; toolName: string; output: unknown }
  | { type: "tool-error"; toolCallId: string; toolName: string; error: unknown };

/** Collects a step's assistant content while the model streams it. */
export class StepContent {
  private readonly parts: AssistantPart[] = [];
  private readonly open = new Map<string, TextPart | ReasoningPart>();

  /** A text or reasoning part begins (ids are the provider's, unique within the step). */
  start(type: "text" | "reasoning", id: string, providerMetadata: Metadata): void {
    const part: TextPart | ReasoningPart = { type, text: "", providerOptions: providerMetadata };
    this.open.set(`${type}:${id}`, part);
    this.parts.push(part);
  }

  /** More of an open part's text; the latest provider metadata wins, as the SDK keeps it. */
  append(type: "text" | "reasoning", id: string, text: string, providerMetadata: Metadata): void {
    const part = this.open.get(`${type}:${id}`);
    if (!part) return;
    part.text += text;
    if (providerMetadata) part.providerOptions = providerMetadata;
  }

  end(type: "text" | "reasoning", id: string, providerMetadata: Metadata): void {
    this.append(type, id, "", providerMetadata);
    this.open.delete(`${type}:${id}`);
  }

  toolCall(call: { toolCallId: string; toolName: string; input: unknown; invalid?: boolean; providerMetadata?: Metadata }): void {
    this.parts.push({
      type: "tool-call",
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      // A call whose arguments did not parse is sent back with empty ones, beside its error.
      input: call.invalid && typeof call.input !== "object" ? {} : call.input,
      providerOptions: call.providerMetadata,
    });
  }

  /** The step's messages: the assistant's (when it said anything), then the tools' results. */
  messages(outcomes: readonly ToolOutcome[]): ModelMessage[] {
    const content = this.parts.filter((part) => part.type !== "text" || part.text.length > 0 || part.providerOptions);
    const messages: ModelMessage[] = content.length > 0 ? [{ role: "assistant", content }] : [];
    if (outcomes.length > 0) messages.push(toolMessage(outcomes, this.callOrder()));
    return messages;
  }

  private callOrder(): Map<string, number> {
    const order = new Map<string, number>();
    for (const part of this.parts) if (part.type === "tool-call" && !order.has(part.toolCallId)) order.set(part.toolCallId, order.size);
    return order;
  }
}

function toolMessage(outcomes: readonly ToolOutcome[], order: Map<string, number>): ToolModelMessage {
  const rank = (outcome: ToolOutcome) => order.get(outcome.toolCallId) ?? Number.POSITIVE_INFINITY;
  // Array.prototype.sort is stable: results of unknown calls keep their arrival order, last.
  const sorted = [...outcomes].sort((a, b) => rank(a) - rank(b));
  return { role: "tool", content: sorted.map(toolResultPart) };
}

function toolResultPart(outcome: ToolOutcome): ToolResultPart {
  const { toolCallId, toolName } = outcome;
  if (outcome.type === "tool-error")
    return { type: "tool-result", toolCallId, toolName, output: { type: "error-text", value: getErrorMessage(outcome.error) } };
  const { output } = outcome;
  return {
    type: "tool-result",
    toolCallId,
    toolName,
    // A plain JSON value, as the SDK sends it: undefined becomes null, Dates their ISO text.
    output:
      typeof output === "string"
        ? { type: "text", value: output }
        : { type: "json", value: output === undefined ? null : JSON.parse(JSON.stringify(output)) },
  };
}

const addCounts = (a: number | undefined, b: number | undefined) => (a == null && b == null ? undefined : (a ?? 0) + (b ?? 0));

/** Two steps' usage summed field by field; a count no step reported stays undefined. */
export function addUsage(a: LanguageModelUsage, b: LanguageModelUsage): LanguageModelUsage {
  return {
    inputTokens: addCounts(a.inputTokens, b.inputTokens),
    inputTokenDetails: {
      noCacheTokens: addCounts(a.inputTokenDetails?.noCacheTokens, b.inputTokenDetails?.noCacheTokens),
      cacheReadTokens: addCounts(a.inputTokenDetails?.cacheReadTokens, b.inputTokenDetails?.cacheReadTokens),
      cacheWriteTokens: addCounts(a.inputTokenDetails?.cacheWriteTokens, b.inputTokenDetails?.cacheWriteTokens),
    },
    outputTokens: addCounts(a.outputTokens, b.outputTokens),
    outputTokenDetails: {
      textTokens: addCounts(a.outputTokenDetails?.textTokens, b.outputTokenDetails?.textTokens),
      reasoningTokens: addCounts(a.outputTokenDetails?.reasoningTokens, b.outputTokenDetails?.reasoningTokens),
    },
    totalTokens: addCounts(a.totalTokens, b.totalTokens),
  };
}

export const NO_USAGE: LanguageModelUsage = {
  inputTokens: undefined,
  inputTokenDetails: { noCacheTokens: undefined, cacheReadTokens: undefined, cacheWriteTokens: undefined },
  outputTokens: undefined,
  outputTokenDetails: { textTokens: undefined, reasoningTokens: undefined },
  totalTokens: undefined,
};
