// Tells the run's hub what became of the run's record, so the hub knows what is left to it:
// an end recorded by the run needs nothing more; a start that was refused frees the run id.
import type { RunRecorder } from "../runtime/run-recorder.ts";

export interface RecordStateHub {
  /** Synchronous: the news travels with the run's next events (see eventPipe.markRecorded). */
  recorded(): void;
  refused(): Promise<void>;
}

export function reportingTo(hub: RecordStateHub, recorder: RunRecorder): RunRecorder {
  return {
    get roundTrips() {
      return recorder.roundTrips;
    },
    start: () =>
      recorder.start().catch(async (error: unknown) => {
        await hub.refused().catch(() => undefined);
        throw error;
      }),
    toolResult: (info) => recorder.toolResult(info),
    text: (messageId, delta) => recorder.text(messageId, delta),
    // Before the terminal event reaches the hub, so the hub never retries a recorded end.
    finish: async (outcome) => {
      await recorder.finish(outcome);
      hub.recorded();
    },
  };
}
