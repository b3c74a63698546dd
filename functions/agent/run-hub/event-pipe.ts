// From the run to its hub: the pipe numbers each event as it is emitted (the number is its SSE
// id, on the POST's live stream and in the hub alike), then sends them in order, a batch per
// round trip, so a slow append never reorders events and never blocks the run. Each batch also
// goes to the POST's live stream when it is due, without waiting for the hub. Each answer
// says whether the user asked to cancel. News about the run's record rides with the next batch
// instead of taking a round trip of its own. An append that fails, or does not answer within
// `hubTimeoutMs`, costs the hub that batch, not the run: the next batch still goes, numbered as
// emitted, and the live stream has them all.
//
// Both are paced, each at its own cadence (decision D44). A run emits its events in bursts: a
// real model sends a delta per token, and a fast run emits its steps a few milliseconds apart.
// So an event waits until the interval since the last send is over and goes with whatever else
// arrived meanwhile; the first event after a quiet spell goes at once (a run's first event is
// never held), and the run's end goes at once, to both, with everything waiting.
// - The live stream is the user watching the answer: a chunk per 50 ms at most.
// - The hub is for followers (a client that resumes) and carries the cancel flag back. Each
//   append is a Durable Object request and a storage write (about 2 ms of CPU locally, and a
//   billed request and write in production), so it goes at most once a second while events
//   flow, and a cancel is noticed up to a second later, as it already is while the run is
//   silent (below). Once an append's answer says a client follows the run live (it
//   resumed), the hub gets the live stream's cadence: that client lags by up to a second once,
//   then as the live stream does.
//
// A run that has nothing to append (waiting on a slow model call) would never hear of a cancel
// that way, so while the pipe is idle it asks the hub every `cancelPollMs`: one read-only
// Durable Object call per second of silence, none while events flow. At its finish line the
// run asks once more (`settle`), so that a cancel that came first wins.
import { DATA_PLANE_TIMEOUT_MS, withDeadline } from "../../lib/bounded-fetch.ts";
import { type AgentEvent, isTerminalEvent } from "../runtime/ag-ui-events.ts";
import type { AppendAnswer, AppendNote } from "./run-hub.ts";

export interface HubLike {
  append(events: AgentEvent[], note?: AppendNote): Promise<AppendAnswer>;
  isCancelRequested?(): Promise<boolean>;
}

/** How a hub call that did not answer in time names the hub (a 503 UPSTREAM_UNAVAILABLE from the routes). */
export const RUN_HUB_NAME = "the run's event log";

/** A call to the run's hub, failed with DeadlineExceeded if it has not answered within `timeoutMs`. */
export const withinHubDeadline = <T>(call: Promise<T>, timeoutMs: number = DATA_PLANE_TIMEOUT_MS) =>
  withDeadline(call, timeoutMs, RUN_HUB_NAME);

/** The live stream: at most about 20 chunks a second, well under what a reader notices. */
export const LIVE_INTERVAL_MS = 50;
/** The hub: at most one append a second while events flow, besides the run's end and its drains. */
export const HUB_INTERVAL_MS = 1_000;
/** How long a silent run goes before it asks its hub whether it was cancelled. */
export const CANCEL_POLL_MS = 1_000;

export interface EventPipeOptions {
  liveIntervalMs?: number;
  hubIntervalMs?: number;
  cancelPollMs?: number;
  /** A hub call that has not answered by then has failed (the data plane's deadline by default). */
  hubTimeoutMs?: number;
  /** When the run's first events reached the hub and the live stream some other way (with its start): pacing counts from there. */
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

/**
 * Sends what waits at most once per interval: at once after a quiet spell (with whatever else
 * is emitted in the same tick), otherwise when the interval since the last send is over.
 */
function cadence(intervalMs: () => number, lastSentAt: () => number, send: () => void) {
  let timer: "tick" | ReturnType<typeof setTimeout> | undefined;
  const cancel = () => {
    if (timer !== undefined && timer !== "tick") clearTimeout(timer);
    timer = undefined;
  };
  const fire = () => {
    cancel();
    send();
  };
  const soon = () => {
    if (timer === "tick") return;
    cancel();
    timer = "tick";
    queueMicrotask(fire);
  };
  return {
    /** Something waits to be sent. */
    waiting: () => timer !== undefined,
    /** Something new waits: it joins what already waits, or goes when the interval allows. */
    poke() {
      if (timer !== undefined) return;
      const wait = lastSentAt() + intervalMs() - Date.now();
      if (wait <= 0) soon();
      else timer = setTimeout(fire, wait);
    },
    /** Goes in this tick, with everything waiting (the run's end). */
    soon,
    /** Goes now (a drain). */
    now: fire,
  };
}

export function eventPipe(hub: HubLike, onCancelRequested: () => void, options: EventPipeOptions = {}) {
  const cancelPollMs = options.cancelPollMs ?? CANCEL_POLL_MS;
  const bounded = <T>(call: Promise<T>) => withinHubDeadline(call, options.hubTimeoutMs);
  let queue: AgentEvent[] = []; // not yet sent to the hub
  let due: AgentEvent[] = []; // not yet handed to onBatch
  let nextSeq = options.firstSeq ?? 0;
  let note: AppendNote = {};
  let sending: Promise<void> = Promise.resolve();
  let lastSentAt = options.appendedAt ?? Number.NEGATIVE_INFINITY;
  let liveSentAt = lastSentAt;

  const liveIntervalMs = options.liveIntervalMs ?? LIVE_INTERVAL_MS;
  const hubIntervalMs = options.hubIntervalMs ?? HUB_INTERVAL_MS;
  let followed = false; // the hub's last answer: a client follows the run live
  const live = cadence(
    () => liveIntervalMs,
    () => liveSentAt,
    () => {
      if (due.length === 0) return;
      const batch = due;
      due = [];
      liveSentAt = Date.now();
      options.onBatch?.(nextSeq - batch.length, batch);
    },
  );

  // Behind the append in flight, so a slow hub never reorders batches; what arrives meanwhile
  // goes with the next one.
  const append = () => {
    sending = sending.then(async () => {
      if (queue.length === 0 && !note.recorded) return;
      const batch = queue;
      const sent: AppendNote = { ...note, from: nextSeq - batch.length };
      queue = [];
      note = {};
      lastSentAt = Date.now();
      try {
        const answer = await bounded(hub.append(batch, sent));
        followed = answer.followed === true;
        if (answer.cancelRequested) cancelled();
      } catch (error) {
        options.onAppendFailed?.(error, batch.length);
      }
    });
    return sending;
  };
  // A followed run sends to the hub at the live stream's cadence: its follower is a client too.
  const toHub = cadence(
    () => (followed ? liveIntervalMs : hubIntervalMs),
    () => lastSentAt,
    () => void append(),
  );

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
      if (asking || Date.now() - lastSentAt < cancelPollMs || toHub.waiting()) return; // events flow: appends carry the answer
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

  const drain = () => {
    live.now();
    toHub.now();
    return sending;
  };

  return {
    /** Numbers the event and queues it for the next batch. */
    emit(event: AgentEvent): void {
      nextSeq++;
      queue.push(event);
      if (options.onBatch) due.push(event);
      if (isTerminalEvent(event)) {
        stopWatching();
        live.soon();
        toHub.soon();
      } else {
        if (options.onBatch) live.poke();
        toHub.poke();
      }
    },
    /**
     * The run recorded its end itself. Reaches the hub with the next batch (the one holding
     * the terminal event, which is emitted after), or with `drain` if nothing follows.
     */
    markRecorded() {
      note = { recorded: true };
    },
    /** Sends everything emitted so far now; resolves when the hub has it. */
    drain,
    /**
     * The run is at its finish line: resolves once the hub has said whether a cancel came
     * first, after any append in flight. A read, not a write: what waits for the hub goes with
     * the run's end a moment later. A hub that cannot answer counts as no cancel.
     */
    async settle(): Promise<void> {
      if (!hub.isCancelRequested) return drain();
      await sending;
      try {
        if (await bounded(hub.isCancelRequested())) cancelled();
      } catch {
        // the run goes on to record its end; the hub's cancel flag is lost with the hub
      }
    },
    /** The run is over (however it ended): no more polling. */
    stop: stopWatching,
  };
}
