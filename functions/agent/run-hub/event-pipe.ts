// From the run to its hub: events are queued and sent in order, a batch per round trip, so a
// slow append never reorders events and never blocks the run. Each answer says whether the
// user asked to cancel. News about the run's record rides with the next batch instead of
// taking a round trip of its own.
import type { AgentEvent } from "../runtime/ag-ui-events.ts";
import type { AppendNote } from "./run-hub.ts";

export interface HubLike {
  append(events: AgentEvent[], note?: AppendNote): Promise<{ cancelRequested: boolean }>;
}

export function eventPipe(hub: HubLike, onCancelRequested: () => void) {
  let queue: AgentEvent[] = [];
  let note: AppendNote = {};
  let sending: Promise<void> = Promise.resolve();

  const flush = () => {
    sending = sending.then(async () => {
      if (queue.length === 0 && !note.recorded) return;
      const batch = queue;
      const sent = note;
      queue = [];
      note = {};
      const { cancelRequested } = await hub.append(batch, sent);
      if (cancelRequested) onCancelRequested();
    });
    return sending;
  };

  return {
    emit(event: AgentEvent) {
      queue.push(event);
      // Batch what is emitted in the same tick; keep the order of batches.
      if (queue.length === 1) queueMicrotask(() => void flush());
    },
    /**
     * The run recorded its end itself. Reaches the hub with the next batch (the one holding
     * the terminal event, which is emitted after), or with `drain` if nothing follows.
     */
    markRecorded() {
      note = { recorded: true };
    },
    /** Resolves when everything emitted so far has reached the hub. */
    drain: () => flush(),
  };
}
