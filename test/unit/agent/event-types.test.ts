// The run's events keep their @ag-ui/core types from the constructors to the SSE bytes: the
// pipe, the hub's append, its storage and its terminal-event reading all take AgentEvent, so a
// shapeless BaseEvent (or a cast one) no longer fits. Checked by the type checker (npm run
// typecheck compiles this file); the last test runs the terminal-event reading itself.
import type { BaseEvent, RunErrorEvent, RunFinishedEvent } from "@ag-ui/core";
import { describe, expect, expectTypeOf, test } from "vitest";
import { recordedEnd } from "../../../functions/agent/run-hub/close-run-record.ts";
import type { eventPipe, HubLike } from "../../../functions/agent/run-hub/event-pipe.ts";
import type { RunHub } from "../../../functions/agent/run-hub/run-hub.ts";
import { type AgentEvent, agUi } from "../../../functions/agent/runtime/ag-ui-events.ts";

describe("AG-UI event types end to end", () => {
  test("the pipe and the hub take the run's own events, not BaseEvent", () => {
    expectTypeOf<Parameters<ReturnType<typeof eventPipe>["emit"]>[0]>().toEqualTypeOf<AgentEvent>();
    expectTypeOf<Parameters<HubLike["append"]>[0]>().toEqualTypeOf<AgentEvent[]>();
    expectTypeOf<Parameters<RunHub["append"]>[0]>().toEqualTypeOf<AgentEvent[]>();
    expectTypeOf<BaseEvent>().not.toExtend<AgentEvent>();
  });

  test("the record's end is read from the terminal event types", () => {
    expectTypeOf<Parameters<typeof recordedEnd>[0]>().toEqualTypeOf<RunFinishedEvent | RunErrorEvent>();
    const usage = { input_tokens: 0, output_tokens: 0, total_tokens: 0, by_stage: {} };
    expect(recordedEnd(agUi.runFinished("t", "r", { step_count: 1, usage }, []))).toEqual({ status: "succeeded", errorCode: null });
    expect(recordedEnd(agUi.runFinished("t", "r", { step_count: 1, usage }, [], "cancelled"))).toEqual({
      status: "cancelled",
      errorCode: null,
    });
    expect(recordedEnd(agUi.runError("RUN_ABANDONED", "gone"))).toEqual({ status: "failed", errorCode: "RUN_ABANDONED" });
    expect(recordedEnd(agUi.runError("X".repeat(80), "long")).errorCode).toHaveLength(64);
  });
});
