// Post-processing of one tool call, run by the agent runtime after every call: the record to
// keep (ToolAgentOutput), the card to render (ui_schema, compiled from its ui_hints) and a
// one-line summary. Pure: same call in, same three things out. See docs/tool-cards.md.

import { compileCard, type UiSchema } from "./card-compiler.ts";
import { buildToolContentSummary, SUMMARY_VERSION } from "./content-summary.ts";
import { buildContextFacts } from "./context-facts.ts";
import type { Locale } from "./locale.ts";
import { buildToolAgentOutput, type ToolAgentOutput, type ToolCall } from "./tool-agent-output.ts";

export { Block, type BlockType, compileCard, UI_SCHEMA_VERSION, UiSchema } from "./card-compiler.ts";
export { buildToolContentSummary, cleanSummary, SUMMARY_MAX_LENGTH, SUMMARY_VERSION } from "./content-summary.ts";
export { buildContextFacts, CONTEXT_MAX_LENGTH } from "./context-facts.ts";
export { LOCALES, type Locale, resolveLocale } from "./locale.ts";
export {
  asRecord,
  buildToolAgentOutput,
  CliErrorSchema,
  callInput,
  isToolName,
  ProjectCliAgentOutput,
  SkillFileErrorSchema,
  TOOL_NAMES,
  ToolAgentOutput,
  type ToolCall,
  type ToolName,
  ToolStatus,
  UnknownToolAgentOutput,
  ViewSkillFileAgentOutput,
  type ViewSkillFileResult,
} from "./tool-agent-output.ts";
export { EventHint, HINTED_ACTIONS, type HintedAction, type UiHintKind, UiHints, uiHintsFor } from "./ui-hints.ts";

export interface PostProcessedToolCall {
  toolAgentOutput: ToolAgentOutput;
  /** null when the call gets no card (memory.read, view_skill_file, unknown methods). */
  uiSchema: UiSchema | null;
  summary: string;
  summaryVersion: number;
  /** The summary with the ids and key facts of what the call touched, for later turns. */
  context: string;
  /** The language of the summary and the card; kept with the message so history shows the same card. */
  locale: Locale;
}

/** `locale`: the language of the summary and the card (the request's). */
export function postProcessToolCall(call: ToolCall, locale: Locale = "en"): PostProcessedToolCall {
  const toolAgentOutput = buildToolAgentOutput(call);
  const summary = buildToolContentSummary(toolAgentOutput, locale);
  return {
    toolAgentOutput,
    uiSchema: toolAgentOutput.ui_hints ? compileCard(toolAgentOutput.ui_hints, locale) : null,
    summary,
    summaryVersion: SUMMARY_VERSION,
    context: buildContextFacts(toolAgentOutput, summary),
    locale,
  };
}
