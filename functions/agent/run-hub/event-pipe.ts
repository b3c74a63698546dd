// From the run to its hub: events are queued and sent in order, a batch per round trip, so a
// slow append never reorders events and never blocks the run. Each answer says whether the
// user asked to cancel.
import type { AgentEvent } from "../runtime/ag-ui-events.ts";

export interface HubLike {
  append(events: AgentEvent[]): Promise<{ cancelRequested: boolean }>;
}

export function eventPipe(hub: HubLike, onCancelRequested: () => void) {
  let queue: AgentEvent[] = [];
  let sending: Promise<void> = Promise.resolve();

  const flush = () => {
    sending = sending.then(async () => {
      if (queue.length === 0) return;
      const batch = queue;
      queue = [];
      const { cancelRequested } = await hub.append(batch);
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
    /** Resolves when everything emitted so far has reached the hub. */
    drain: () => flush(),
  };
}
