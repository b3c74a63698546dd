// From the run to its hub: events are queued and sent in order, a batch per round trip, so a
// slow append never reorders events and never blocks the run. Each answer says whether the
// user asked to cancel. News about the run's record rides with the next batch instead of
// taking a round trip of its own.
//
// Streamed text is paced: a real model sends a delta per token, each in its own task, and
// without pacing every token would be a Durable Object call and a storage write. Text deltas
// wait until `textIntervalMs` after the last append; any other event (a tool call, the end of
// the message, the run's end) goes at once and takes the waiting text with it. The cost: a
// follower sees streamed text up to that interval later, and a cancel request is noticed up
// to that much later while text streams.
//
// A run that has nothing to append (waiting on a slow model call) would never hear of a cancel
// that way, so while the pipe is idle it asks the hub every `cancelPollMs`: one read-only
// Durable Object call per second of silence, none while events flow.
import { EventType } from "@ag-ui/core";
import type { AgentEvent } from "../runtime/ag-ui-events.ts";
import type { AppendNote } from "./run-hub.ts";

export interface HubLike {
  append(events: AgentEvent[], note?: AppendNote): Promise<{ cancelRequested: boolean }>;
  isCancelRequested?(): Promise<boolean>;
}

/** At most about 20 appends a second while text streams; well under what a reader notices. */
export const TEXT_INTERVAL_MS = 50;
/** How long a silent run goes before it asks its hub whether it was cancelled. */
export const CANCEL_POLL_MS = 1_000;

const isTerminal = (event: AgentEvent) => event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR;

export function eventPipe(hub: HubLike, onCancelRequested: () => void, options: { textIntervalMs?: number; cancelPollMs?: number } = {}) {
  const textIntervalMs = options.textIntervalMs ?? TEXT_INTERVAL_MS;
  const cancelPollMs = options.cancelPollMs ?? CANCEL_POLL_MS;
  let queue: AgentEvent[] = [];
  let note: AppendNote = {};
  let sending: Promise<void> = Promise.resolve();
  let lastSentAt = Number.NEGATIVE_INFINITY;
  let scheduled: "now" | ReturnType<typeof setTimeout> | undefined;

  const flush = () => {
    if (scheduled !== undefined && scheduled !== "now") clearTimeout(scheduled);
    scheduled = undefined;
    sending = sending.then(async () => {
      if (queue.length === 0 && !note.recorded) return;
      const batch = queue;
      const sent = note;
      queue = [];
      note = {};
      lastSentAt = Date.now();
      const { cancelRequested } = await hub.append(batch, sent);
      if (cancelRequested) cancelled();
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
      hub
        .isCancelRequested?.()
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
    emit(event: AgentEvent) {
      queue.push(event);
      if (isTerminal(event)) stopWatching();
      if (event.type !== EventType.TEXT_MESSAGE_CONTENT) return flushSoon();
      if (scheduled !== undefined) return; // text joins the batch already on its way
      const wait = lastSentAt + textIntervalMs - Date.now();
      if (wait <= 0) return flushSoon();
      scheduled = setTimeout(() => void flush(), wait);
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
