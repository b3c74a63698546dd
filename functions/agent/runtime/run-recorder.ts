// What a run asks of whoever records it. The runtime declares this port and knows nothing of
// how records are kept; functions/agent/persistence/run-recorder.ts implements it over the
// database and object storage, and the run routes hand that implementation to runAgent.
// So persistence depends on the runtime, never the reverse (decision D30).
import type { ErrorCode } from "../../lib/errors.ts";
import type { PostProcessedToolCall } from "../post-processing/index.ts";
import type { RunResult } from "./ag-ui-events.ts";
import type { IntentTurn } from "./intent.ts";

export interface RunOutcome {
  status: "succeeded" | "failed" | "cancelled";
  errorCode?: string;
  stepCount: number;
  usage: RunResult["usage"];
  stageTimings: Record<string, number>;
  /** Message ids of failed tool calls a later call of the same action superseded: no card in history. */
  supersededFailures?: ReadonlySet<string>;
}

export interface ToolResultInfo {
  messageId: string;
  toolCallId: string;
  toolName: string;
  args: unknown;
  content: string;
  processed: PostProcessedToolCall;
}

export interface RunRecorder {
  /** Records the run's start and returns the thread's earlier turns, summarised, in one round trip. */
  start(): Promise<IntentTurn[]>;
  toolResult(info: ToolResultInfo): void;
  text(messageId: string, delta: string): void;
  finish(outcome: RunOutcome): Promise<void>;
  /** Database round trips made so far (for benchmarks and tests). */
  readonly roundTrips: number;
}

/**
 * What a failed start or finish means for the run: the code and message its client is told,
 * and whether trying again can help. A recorder rejects with a subclass of this when it knows;
 * any other rejection is read as "the records cannot be reached".
 */
export abstract class RecordFailure extends Error {
  abstract readonly meaning: { readonly errorCode: ErrorCode; readonly message: string; readonly retryable: boolean };
}
