// The coding agent: an AI SDK tool loop over the workspace, the sandbox and register_tool,
// with a cap on steps and on cost (tokens at the configured prices). Every step is logged the
// way the Tool Agent design logs its coding agent: each tool used and with what, each result,
// the model's text, then DONE (how it ended, how long) and COST. It ends `completed` only when
// a tool was registered active; anything else is `failed` with the reason.
import { generateText, type LanguageModel, stepCountIs } from "ai";
import type { Registration } from "./candidate-registration.ts";
import { CODING_SYSTEM, codingPrompt } from "./coding-prompt.ts";
import { type CodingToolDeps, codingTools } from "./coding-tools.ts";

export type CodingTask =
  | { taskId: string; kind: "build_tool"; description: string; toolName?: string; details?: string }
  | { taskId: string; kind: "github_deploy"; description: string; toolName?: string }
  | { taskId: string; kind: "repair_tool"; description: string; toolId: string; error: string };

export interface CodingLimits {
  maxSteps: number;
  maxCostUsd: number;
  usdPerMTokInput: number;
  usdPerMTokOutput: number;
  /** Deadline of one model call. */
  callTimeoutMs: number;
}

export type LogKind = "TOOL_USE" | "TOOL_RESULT" | "TEXT" | "DONE" | "COST" | "ERROR";
/** Appends to the task's log; must not throw (a log that cannot be written loses the entry, not the task). */
export type CodingLog = (kind: LogKind, detail: Record<string, unknown>) => Promise<void>;

export interface CodingOutcome {
  outcome: "completed" | "failed";
  message: string;
  tool_id?: string;
  version?: number;
  steps: number;
  cost_usd: number;
  input_tokens: number;
  output_tokens: number;
  duration_ms: number;
}

const LOGGED_CHARS = 200;

/** A value cut to what a log line needs: short values whole, long strings cut, at most 10 items and 3 levels. */
function compact(value: unknown, depth: number): unknown {
  const text = JSON.stringify(value) ?? "null";
  if (text.length <= LOGGED_CHARS) return value;
  if (depth < 3 && Array.isArray(value)) return value.slice(0, 10).map((item) => compact(item, depth + 1));
  if (depth < 3 && typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, compact(item, depth + 1)]));
  }
  return `${text.slice(0, LOGGED_CHARS)}...`;
}

/** What the log keeps of a tool's input or output: file contents by size only, the rest compacted. */
export function logged(value: unknown): unknown {
  if (typeof value === "object" && value !== null && "content" in value && typeof value.content === "string") {
    const { content, ...rest } = value as { content: string };
    return { ...(compact(rest, 0) as object), content_chars: content.length };
  }
  return compact(value, 0);
}

export interface CodingAgentDeps {
  model: LanguageModel;
  tools: CodingToolDeps;
  limits: CodingLimits;
  log: CodingLog;
  now?: () => number;
}

export async function runCodingAgent(task: CodingTask, deps: CodingAgentDeps): Promise<CodingOutcome> {
  const now = deps.now ?? Date.now;
  const started = now();
  const { limits, log } = deps;
  let active: Registration | undefined;
  let last: Registration | undefined;
  const tools = codingTools({
    ...deps.tools,
    register: async (input) => {
      last = await deps.tools.register(input);
      if (last.status === "active") active = last;
      return last;
    },
  });
  let steps = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  const cost = () => (inputTokens * limits.usdPerMTokInput + outputTokens * limits.usdPerMTokOutput) / 1_000_000;
  let failure: string | undefined;
  try {
    await generateText({
      model: deps.model,
      system: CODING_SYSTEM,
      prompt: codingPrompt(task),
      tools,
      // An active tool is the goal: stop there, or at either cap.
      stopWhen: [stepCountIs(limits.maxSteps), () => active !== undefined, () => cost() >= limits.maxCostUsd],
      maxRetries: 2,
      timeout: { stepMs: limits.callTimeoutMs },
      onStepFinish: async (step) => {
        steps += 1;
        inputTokens += step.usage.inputTokens ?? 0;
        outputTokens += step.usage.outputTokens ?? 0;
        for (const call of step.toolCalls) await log("TOOL_USE", { step: steps, tool: call.toolName, input: logged(call.input) });
        for (const result of step.toolResults)
          await log("TOOL_RESULT", { step: steps, tool: result.toolName, output: logged(result.output) });
        if (step.text.trim()) await log("TEXT", { step: steps, text: step.text.slice(0, 2_000) });
      },
    });
  } catch (error) {
    const { name, message } = error as Error;
    failure = `the coding model failed (${name}): ${message.slice(0, 300)}`;
    await log("ERROR", { message: failure });
  }
  const outcome: CodingOutcome = {
    outcome: active ? "completed" : "failed",
    message: active ? active.message : (failure ?? whyNotActive(steps, cost(), limits, last)),
    ...(active ? { tool_id: active.tool_id, version: active.version } : last ? { tool_id: last.tool_id } : {}),
    steps,
    cost_usd: Math.round(cost() * 1_000_000) / 1_000_000,
    input_tokens: inputTokens,
    output_tokens: outputTokens,
    duration_ms: now() - started,
  };
  await log("DONE", { outcome: outcome.outcome, duration_ms: outcome.duration_ms, steps, message: outcome.message });
  await log("COST", { usd: outcome.cost_usd, input_tokens: inputTokens, output_tokens: outputTokens });
  return outcome;
}

function whyNotActive(steps: number, cost: number, limits: CodingLimits, last: Registration | undefined): string {
  const lastWord = last ? ` The last registration: ${last.status}: ${last.message}` : "";
  if (cost >= limits.maxCostUsd) return `stopped at the cost cap ($${limits.maxCostUsd}) without an active tool.${lastWord}`;
  if (steps >= limits.maxSteps) return `stopped after ${steps} steps (the cap) without an active tool.${lastWord}`;
  return `the model finished without registering an active tool.${lastWord}`;
}
