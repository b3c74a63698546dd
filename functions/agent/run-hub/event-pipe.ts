// From the run to its hub: the pipe numbers each event as it is emitted (the number is its SSE
// id, on the POST's live stream and in the hub alike), then sends them in order, a batch per
// round trip, so a slow append never reorders events and never blocks the run. Each batch also
// goes to the POST's live stream when it is due, without waiting for the hub. Each answer
// says whether the user asked to cancel. News about the run's record rides with the next batch
// instead of taking a round trip of its own. An append that fails, or does not answer within
// `hubTimeoutMs`, costs the hub that batch, not the run: the next batch still goes, numbered as
// emitted, and the live stream has them all.
//
// Appends are paced. Each is a Durable Object call and a storage commit (about 1.3 ms of CPU
// locally, and a billed request and write in production), and a run emits its events in
// bursts: a real model sends a delta per token, each in its own task, and a fast run emits its
// steps a few milliseconds apart. So an event waits until `intervalMs` after the last append
// and goes with whatever else arrived meanwhile. The first event after a quiet spell goes at
// once (a run's first event is never held), and the run's end goes at once and takes
// everything waiting with it. The cost: a follower sees an event up to that interval later,
// and a cancel request is noticed up to that much later while events flow.
//
// A run that has nothing to append (waiting on a slow model call) would never hear of a cancel
// that way, so while the pipe is idle it asks the hub every `cancelPollMs`: one read-only
// Durable Object call per second of silence, none while events flow.
import { DATA_PLANE_TIMEOUT_MS, withDeadline } from "../../lib/bounded-fetch.ts";
import { type AgentEvent, isTerminalEvent } from "../runtime/ag-ui-events.ts";
import type { AppendNote } from "./run-hub.ts";

export interface HubLike {
  append(events: AgentEvent[], note?: AppendNote): Promise<{ cancelRequested: boolean }>;
  isCancelRequested?(): Promise<boolean>;
}

/** At most about 20 appends a second while events flow; well under what a reader notices. */
export const APPEND_INTERVAL_MS = 50;
/** How long a silent run goes before it asks its hub whether it was cancelled. */
export const CANCEL_POLL_MS = 1_000;

export interface EventPipeOptions {
  intervalMs?: number;
  cancelPollMs?: number;
  /** A hub call that has not answered by then has failed (the data plane's deadline by default). */
  hubTimeoutMs?: number;
  /** When the run's first events reached the hub some other way (with its start): pacing counts from there. */
  appendedAt?: number;
  /** The number of the first event emitted here: how many the hub already holds (its start's). */
  firstSeq?: number;
  /** An append failed: its batch is missing from the hub (resumes skip it); the run goes on. */
  onAppendFailed?: (error: unknown, events: number) => void;
  /**
   * Each paced batch when it is due, numbered, before the hub has it and whatever the hub's
   * speed: the POST's live stream. A slow or failing hub delays or loses only its own copy.
   */
  onBatch?: (from: number, events: AgentEvent[]) => void;
}

export function eventPipe(hub: HubLike, onCancelRequested: () => void, options: EventPipeOptions = {}) {
  const intervalMs = options.intervalMs ?? APPEND_INTERVAL_MS;
  const cancelPollMs = options.cancelPollMs ?? CANCEL_POLL_MS;
  const bounded = <T>(call: Promise<T>) => withDeadline(call, options.hubTimeoutMs ?? DATA_PLANE_TIMEOUT_MS, "the run's event log");
  let queue: AgentEvent[] = [];
  let due: AgentEvent[] = []; // not yet handed to onBatch
  let nextSeq = options.firstSeq ?? 0;
  let note: AppendNote = {};
  let sending: Promise<void> = Promise.resolve();
  let lastSentAt = options.appendedAt ?? Number.NEGATIVE_INFINITY;
  let scheduled: "now" | ReturnType<typeof setTimeout> | undefined;

  const flush = () => {
    if (scheduled !== undefined && scheduled !== "now") clearTimeout(scheduled);
    scheduled = undefined;
    if (due.length > 0) {
      const batch = due;
      due = [];
      options.onBatch?.(nextSeq - batch.length, batch);
    }
    sending = sending.then(async () => {
      if (queue.length === 0 && !note.recorded) return;
      const batch = queue;
      const sent: AppendNote = { ...note, from: nextSeq - batch.length };
      queue = [];
      note = {};
      lastSentAt = Date.now();
      try {
        const { cancelRequested } = await bounded(hub.append(batch, sent));
        if (cancelRequested) cancelled();
      } catch (error) {
        options.onAppendFailed?.(error, batch.length);
      }
    });
    return sending;
  };

  let watch: ReturnType<typeof setInterval> | undefined;
  const stopWatching = () => {
    if (watch !== undefined) clearInterval(watch);
    watch = undefined;
  };
  const cancelled = () => {
    stopWatching();
    onCancelRequested();
  };
  if (hub.isCancelRequested) {
    let asking = false; // one question at a time: a slow hub must not collect a pile of them
    watch = setInterval(() => {
      if (asking || Date.now() - lastSentAt < cancelPollMs || scheduled !== undefined) return; // events flow: appends carry the answer
      asking = true;
      // Called on the hub itself: a Durable Object stub's methods are RPC properties, and
      // `.bind` on one would name a remote property "isCancelRequested.bind".
      bounded(hub.isCancelRequested!())
        .then(
          (requested) => requested && watch !== undefined && cancelled(),
          () => {}, // the hub is unreachable: the next append or poll tries again
        )
        .finally(() => {
          asking = false;
        });
    }, cancelPollMs);
  }

  const flushSoon = () => {
    if (scheduled === "now") return;
    if (scheduled !== undefined) clearTimeout(scheduled);
    scheduled = "now";
    // Batch what is emitted in the same tick; keep the order of batches.
    queueMicrotask(() => void flush());
  };

  return {
    /** Numbers the event and queues it for the next batch. */
    emit(event: AgentEvent): void {
      nextSeq++;
      queue.push(event);
      if (options.onBatch) due.push(event);
      if (isTerminalEvent(event)) {
        stopWatching();
        flushSoon();
      } else if (scheduled === undefined) {
        // (otherwise it joins the batch already on its way)
        const wait = lastSentAt + intervalMs - Date.now();
        if (wait <= 0) flushSoon();
        else scheduled = setTimeout(() => void flush(), wait);
      }
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
    /** The run is over (however it ended): no more polling. */
    stop: stopWatching,
  };
}
