// One agent run, from the request to the last event: intent -> execution (tool loop) ->
// report, emitted as AG-UI events while they happen. Every path ends with exactly one
// RUN_FINISHED or RUN_ERROR, and nothing after it.
import type { SharedV4Warning } from "@ai-sdk/provider";
import type { ModelMessage } from "ai";
import { log } from "../../lib/log.ts";
import type { CliContext } from "../../project_cli/context.ts";
import { type CliResult, failure } from "../../project_cli/result.ts";
import { type PostProcessedToolCall, postProcessToolCall } from "../post-processing/index.ts";
import type { Settings } from "../settings.ts";
import type { SkillFileResult, SkillLibrary } from "../skills/skill-library.ts";
import { type AgentEvent, agUi, protocolUsage, runUsage, type StageUsage } from "./ag-ui-events.ts";
import { withCoalescedDeltas } from "./coalesced-deltas.ts";
import { buildExecutionInstructions, preloadPath } from "./execution-prompt.ts";
import { type DeferredCard, failureCards } from "./failure-cards.ts";
import { runIntentStage } from "./intent.ts";
import { describeModelFailure, errorKind } from "./model-errors.ts";
import type { AgentModels } from "./models.ts";
import { RecordFailure, type RunRecorder } from "./run-recorder.ts";
import { type RunRequest, userTurnText } from "./run-request.ts";
import { toolLoop } from "./tool-loop.ts";
import { agentTools } from "./tools.ts";
import { buildUserContext } from "./user-context.ts";

export interface RunDependencies {
  models: AgentModels;
  cli: CliContext;
  skills: SkillLibrary;
  agent: Settings["agent"];
  /** Persists the run; absent, nothing is written (benchmarks, unit use). */
  recorder?: RunRecorder;
  /** Learns whether a cancel came before the finish line (the run hub's answer). */
  settle?: () => Promise<void>;
  now?: () => Date;
  /** RUN_STARTED (runStartedEvent) already reached the hub with the run's claim: not emitted again. */
  startAnnounced?: boolean;
}

/** A run's first event. The run route sends it with the hub's claim, saving the hub a round trip. */
export const runStartedEvent = (request: Pick<RunRequest, "threadId" | "runId">, models: AgentModels) =>
  agUi.runStarted(request.threadId, request.runId, { models: models.labels, demo_model: models.demo });

/** Said to the model when its step budget is spent, so the run still ends with an answer. */
export const BUDGET_SPENT_NOTE =
  "The step budget for this request is used up; no more tools can be called. Answer the user now with what you found, and say plainly what you could not do.";
const LAST_RESORT_ANSWER = "I could not finish this request. Please try again or rephrase it.";

class RunFailure extends Error {
  readonly code: string;
  /** For operators' logs only (secrets are masked by the logger); never sent to the client. */
  readonly detail: string | undefined;
  constructor(code: string, message: string, detail?: string) {
    super(message);
    this.code = code;
    this.detail = detail;
  }
}

/** The execution model failed: the run ends, saying whether trying again can help. */
function modelFailure(error: unknown): RunFailure {
  const { code, message, status } = describeModelFailure(error);
  // The provider's message can quote its response body: the log gets the status and class only.
  return new RunFailure(code, message, `${errorKind(error)}${status !== undefined ? ` HTTP ${status}` : ""}`);
}

/**
 * Tracks which step and text message are open, so transitions always close what they must.
 * Each model step is one assistant message: its text opens with the step's message id, and its
 * tool calls name that id as their parent, so AG-UI clients attach them to the same message.
 */
class StreamState {
  private step: string | undefined;
  private textId: string | undefined;
  private modelStepId: string = crypto.randomUUID();
  private modelStepTextUsed = false;
  answered = false;
  private readonly emit: (event: AgentEvent) => void;
  private readonly onText: (messageId: string, delta: string) => void;

  constructor(emit: (event: AgentEvent) => void, onText: (messageId: string, delta: string) => void = () => {}) {
    this.emit = emit;
    this.onText = onText;
  }

  /** A new model call began: what follows belongs to a new assistant message. */
  beginModelStep(): void {
    this.closeText();
    this.modelStepId = crypto.randomUUID();
    this.modelStepTextUsed = false;
  }

  /** The assistant message tool calls of the current model step belong to. */
  get parentMessageId(): string {
    return this.modelStepId;
  }

  enterStep(name: string): void {
    if (this.step === name) return;
    this.closeText();
    if (this.step) this.emit(agUi.stepFinished(this.step));
    this.step = name;
    this.emit(agUi.stepStarted(name));
  }

  text(delta: string): void {
    if (delta === "") return;
    this.enterStep("report");
    if (!this.textId) {
      // A second text in the same step (after a tool call) needs an id of its own.
      this.textId = this.modelStepTextUsed ? crypto.randomUUID() : this.modelStepId;
      this.modelStepTextUsed = true;
      this.emit(agUi.textStart(this.textId));
    }
    this.answered = true;
    this.onText(this.textId, delta);
    this.emit(agUi.textContent(this.textId, delta));
  }

  closeText(): void {
    if (!this.textId) return;
    this.emit(agUi.textEnd(this.textId));
    this.textId = undefined;
  }

  closeAll(): void {
    this.closeText();
    if (this.step) this.emit(agUi.stepFinished(this.step));
    this.step = undefined;
  }
}

/**
 * `cancel` aborts the run at the user's request: model calls stop, open messages and steps are
 * closed, and the run ends with RUN_FINISHED, outcome "cancelled". A client that merely goes
 * away does not stop a run; it can resume the stream.
 */
export async function runAgent(
  request: RunRequest,
  deps: RunDependencies,
  emit: (event: AgentEvent) => void,
  cancel: AbortSignal,
): Promise<void> {
  const { threadId, runId } = request;
  const logFields = { run_id: runId, thread_id: threadId };
  const recorder = deps.recorder;
  const state = new StreamState(emit, (messageId, delta) => recorder?.text(messageId, delta));
  let stepCount = 0;
  const timings: Record<string, number> = {};
  const usage: Record<string, StageUsage> = {};
  const modelOf = (stage: string) => ({
    provider: deps.models.provider,
    model: stage === "intent" ? deps.models.labels.intent : deps.models.labels.execution,
  });
  const began = Date.now();
  const lap = (stage: string, since: number) => (timings[`${stage}_ms`] = Date.now() - since);

  if (!deps.startAnnounced) emit(runStartedEvent(request, deps.models));
  if (deps.models.demo) log.warn("agent.demo_model", { ...logFields, note: "no AGENT_MODEL_API_KEY: the offline demo model is answering" });

  const cards = failureCards();
  const showFailureCards = (shown: readonly DeferredCard[]) => {
    for (const card of shown)
      emit(agUi.custom("tool_card", { tool_call_id: card.toolCallId, message_id: card.messageId, ui_schema: card.uiSchema }));
  };

  try {
    // The record of the run comes first: a run that cannot be recorded does not start. Earlier
    // turns of the thread, from the stored summaries, are what the intent stage sees.
    let conversation = request.conversation;
    if (recorder) {
      const earlier = await recorder.start().catch(databaseFailure);
      if (earlier.length > 0) conversation = [...earlier, { role: "user", text: userTurnText(request) }];
    }

    // Intent: what is asked, and hints that save the worker exploration.
    state.enterStep("intent");
    let stageBegan = Date.now();
    const intent = await runIntentStage({
      model: deps.models.intent,
      conversation,
      abortSignal: cancel,
      idleTimeoutMs: deps.agent.modelIdleTimeoutMs,
    });
    lap("intent", stageBegan);
    usage.intent = intent.usage;
    emit(agUi.custom("intent", intent.output));
    if (intent.fallback) log.warn("agent.intent_fallback", { ...logFields, attempts: intent.attempts, ...intent.fallback });

    // Execution: the tool loop, with no chat history (decision D16).
    state.enterStep("execution");
    stageBegan = Date.now();
    const preload = deps.agent.preloadActionCard ? preloadPath(intent.output, (path) => deps.skills.has(path)) : undefined;
    const preloaded = preload ? deps.skills.read(preload) : undefined;
    const instructions = buildExecutionInstructions({
      userContext: buildUserContext(deps.now?.() ?? new Date(), request.timezone, request.locale),
      skills: deps.skills.skills,
      intent: intent.output,
      ...(preloaded?.ok ? { preloaded: { path: preloaded.path, content: preloaded.content } } : {}),
    });
    const messages: ModelMessage[] = [{ role: "user", content: request.userContent }];
    const argsByCall = new Map<string, unknown>();
    // A chunk per token would cost the SDK's per-chunk work on each: deltas are merged first.
    const executionModel = withCoalescedDeltas(deps.models.execution);
    let databaseDown = false;
    // Every step's assistant and tool messages, for the answer asked for when the budget is spent.
    let found: ModelMessage[] = [];

    // The loop runs each step through the AI SDK's call primitive (decision D46, tool-loop.ts).
    const execution = toolLoop({
      model: executionModel,
      instructions,
      messages,
      tools: agentTools({
        cli: deps.cli,
        skills: deps.skills,
        ...(deps.agent.allowedMethods ? { allowed: deps.agent.allowedMethods } : {}),
        onDatabaseUnavailable: () => {
          databaseDown = true;
        },
      }),
      maxSteps: deps.agent.maxSteps,
      // The data plane is down: every further step would fail the same way, so stop after this
      // one and end the run with a clear error instead of spending the step budget
      // (infrastructure only; input mistakes always go back to the model).
      stopAfterStep: () => databaseDown,
      ...(deps.agent.temperature !== undefined ? { temperature: deps.agent.temperature } : {}),
      abortSignal: cancel,
      idleTimeoutMs: deps.agent.modelIdleTimeoutMs,
    });

    for await (const part of execution) {
      switch (part.type) {
        case "start-step":
          state.beginModelStep();
          break;
        case "text-delta":
          state.text(part.text);
          break;
        case "tool-call":
          state.enterStep("execution");
          argsByCall.set(part.toolCallId, part.input);
          emit(agUi.toolCallStart(part.toolCallId, part.toolName, state.parentMessageId));
          emit(agUi.toolCallArgs(part.toolCallId, JSON.stringify(part.input ?? {})));
          emit(agUi.toolCallEnd(part.toolCallId));
          break;
        case "tool-result":
        case "tool-error": {
          // A tool that threw, or a call the SDK refused (unknown tool, unparsable arguments), reads as a failure.
          const output: CliResult | SkillFileResult =
            part.type === "tool-result"
              ? (part.output as CliResult | SkillFileResult)
              : failure(null, null, "INTERNAL", "the tool failed unexpectedly");
          const args = argsByCall.get(part.toolCallId);
          const processed = postProcessToolCall({ toolName: part.toolName, toolCallId: part.toolCallId, args, output }, request.locale);
          const messageId = crypto.randomUUID();
          const content = JSON.stringify(output);
          recorder?.toolResult({ messageId, toolCallId: part.toolCallId, toolName: part.toolName, args, content, processed });
          const card = cards.cardNow(part.toolCallId, messageId, processed);
          emit(agUi.toolCallResult(messageId, part.toolCallId, content, toolResultMetadata(part.toolName, processed, card)));
          break;
        }
        case "finish-step":
          stepCount++;
          break;
        case "warnings":
          logModelWarnings(part.warnings, logFields);
          break;
        case "error":
          throw modelFailure(part.error);
        case "finish":
          usage.execution = part.usage;
          found = part.responseMessages;
          break;
      }
    }
    if (databaseDown) throw new RunFailure("DATABASE_UNAVAILABLE", "your calendar data is unavailable right now; please try again shortly");
    lap("execution", stageBegan);

    // Report: the answer normally streamed during the last step. If the budget ran out on a
    // tool call, ask once more, without tools, for an answer from everything that was found.
    if (!state.answered) {
      stageBegan = Date.now();
      state.beginModelStep();
      const report = toolLoop({
        model: executionModel,
        instructions,
        messages: [...messages, ...found, { role: "user", content: BUDGET_SPENT_NOTE }],
        maxSteps: 1,
        abortSignal: cancel,
        idleTimeoutMs: deps.agent.modelIdleTimeoutMs,
      });
      for await (const part of report) {
        if (part.type === "text-delta") state.text(part.text);
        else if (part.type === "error") throw modelFailure(part.error);
        else if (part.type === "finish") usage.report = part.usage;
      }
      if (!state.answered) state.text(LAST_RESORT_ANSWER);
      lap("report", stageBegan);
    }
    // A cancel requested before the finish line wins; after it, the run has succeeded.
    await deps.settle?.();
    if (cancel.aborted) throw new RunFailure("CANCELLED", "the run was cancelled");
    state.closeAll();
    timings.total_ms = Date.now() - began;
    // RUN_FINISHED means the run is also in history.
    const result = { step_count: stepCount, usage: runUsage(usage) };
    const { shown, superseded } = cards.settle();
    await recorder
      ?.finish({ status: "succeeded", stepCount, usage: result.usage, stageTimings: timings, supersededFailures: superseded })
      .catch(databaseFailure);
    showFailureCards(shown);
    emit(agUi.runFinished(threadId, runId, result, protocolUsage(usage, modelOf)));
    log.info("agent.run_finished", { ...logFields, step_count: stepCount, db_round_trips: recorder?.roundTrips, ...timings });
  } catch (error) {
    const failure = cancel.aborted
      ? new RunFailure("CANCELLED", "the run was cancelled")
      : error instanceof RunFailure
        ? error
        : new RunFailure("INTERNAL", "the run failed unexpectedly");
    const { shown, superseded } = cards.settle();
    // Best effort: the outcome is recorded when the database can still be reached.
    if (recorder && failure.code !== "DATABASE_UNAVAILABLE") {
      await recorder
        .finish({
          status: cancel.aborted ? "cancelled" : "failed",
          errorCode: failure.code,
          stepCount,
          usage: runUsage(usage),
          stageTimings: timings,
          supersededFailures: superseded,
        })
        .catch(() => log.warn("agent.record_failed", { ...logFields, code: failure.code }));
    }
    if (cancel.aborted) {
      state.closeAll();
      const result = { step_count: stepCount, usage: runUsage(usage) };
      emit(agUi.runFinished(threadId, runId, result, protocolUsage(usage, modelOf), "cancelled"));
      log.info("agent.run_cancelled", { ...logFields, step_count: stepCount });
      return;
    }
    // The actions that failed are how this run ended for them; a cancelled run shows none.
    showFailureCards(shown);
    log.error("agent.run_failed", {
      ...logFields,
      code: failure.code,
      error: error instanceof Error ? error.name : typeof error,
      detail: failure.detail,
    });
    emit(agUi.runError(failure.code, failure.message, protocolUsage(usage, modelOf)));
  }
}

/**
 * What the provider said about the request it was sent (a setting it does not support, say),
 * which streamText printed to the console: a log line naming each warning's kind and subject.
 */
function logModelWarnings(warnings: readonly SharedV4Warning[], fields: Record<string, string>): void {
  const kinds = warnings.map((warning) =>
    "feature" in warning
      ? `${warning.type}:${warning.feature}`
      : "setting" in warning
        ? `${warning.type}:${warning.setting}`
        : warning.type,
  );
  log.warn("agent.model_warnings", { ...fields, warnings: kinds });
}

function databaseFailure(error: unknown): never {
  // The records refused this run's values (e.g. its runId is already recorded): a stable,
  // non-retryable code, not "try again shortly".
  if (error instanceof RecordFailure && !error.meaning.retryable)
    throw new RunFailure(error.meaning.errorCode, error.meaning.message, error.message);
  throw new RunFailure(
    "DATABASE_UNAVAILABLE",
    "your data could not be saved or read right now; please try again shortly",
    error instanceof Error ? error.message : undefined,
  );
}

/**
 * What TOOL_CALL_RESULT carries besides the content; history rebuilds the same object. A
 * failure's card is deferred to the end of the run (failure-cards.ts).
 */
export function toolResultMetadata(
  toolName: string,
  processed: PostProcessedToolCall,
  card: { uiSchema: PostProcessedToolCall["uiSchema"]; deferred: boolean } = { uiSchema: processed.uiSchema, deferred: false },
): Record<string, unknown> {
  return {
    tool_name: toolName,
    status: processed.toolAgentOutput.status,
    summary: processed.summary,
    summary_version: processed.summaryVersion,
    ui_schema: card.uiSchema,
    ...(card.deferred ? { card_deferred: true } : {}),
  };
}
