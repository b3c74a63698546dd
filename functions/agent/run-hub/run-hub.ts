// RunHub: one Durable Object per (user, run). It is the run's event log: it keeps every event
// under its number (the SSE `id:`, given by the run as it emitted it), and streams them to
// every follower, first the ones a follower missed, then the rest live, in one order for
// everyone. The POST that starts a run streams from the run itself (decision D42), with the
// same numbers, so a resume continues exactly where that stream stopped. It also carries the
// cancel flag the run checks on each append.
// Its alarm keeps the run's record true: a run silent for the idle limit has lost its Worker
// and is ended (RUN_ABANDONED); a run whose end could not be recorded is recorded by the hub,
// retried with backoff until the database answers.

import { DurableObject } from "cloudflare:workers";
import { log } from "../../lib/log.ts";
import { type AgentEvent, agUi, isTerminalEvent } from "../runtime/ag-ui-events.ts";
import { loadSettings } from "../settings.ts";
import { closeRunRecord, type RecordedEnd, type RunOwner, recordedEnd } from "./close-run-record.ts";
import { sseFrame } from "./sse-frame.ts";

/** How long a finished run's events stay available for resume. */
const RETAIN_MS = 24 * 60 * 60 * 1000;
/** Without RUN_IDLE_TIMEOUT_SECONDS: a run silent this long has lost its Worker. */
const DEFAULT_IDLE_MS = 5 * 60 * 1000;
/** Retries of an unrecorded end: 2 s, 4 s, 8 s, ... at most 10 min apart, for the retention time. */
export const closeRetryDelay = (attempt: number) => Math.min(2_000 * 2 ** attempt, 10 * 60_000);

interface Meta {
  next: number;
  claimed: boolean;
  finished: boolean;
  cancelRequested: boolean;
  /** Whose run it is, so the hub can record its end as that user. */
  owner?: RunOwner;
  /** Last claim or append: idleness is measured from here, not from the start. */
  lastActivityAt?: number;
  finishedAt?: number;
  /** The end the runs row must show; set until the row is known to be finished. */
  unrecordedEnd?: RecordedEnd;
  /** True from the claim until the run says it recorded its end itself. */
  recordOpen?: boolean;
  closeAttempts?: number;
  /** The start was refused: free the run id when the run ends. */
  releaseOnEnd?: boolean;
}

/** What the run tells the hub along with a batch of events. */
export interface AppendNote {
  recorded?: boolean;
  /** The number the run gave the batch's first event; without it, the hub numbers on from its last. */
  from?: number;
}

/** What the hub answers a batch with. */
export interface AppendAnswer {
  cancelRequested: boolean;
  /** A client follows the run live (it resumed): the run sends it events sooner (decision D44). */
  followed?: boolean;
}

interface Subscriber {
  after: number;
  push: (seq: number, event: AgentEvent) => void;
  end: () => void;
}

export class RunHub extends DurableObject<Env> {
  private meta: Meta | undefined;
  private readonly subscribers = new Set<Subscriber>();

  private async load(): Promise<Meta> {
    this.meta ??= (await this.ctx.storage.get<Meta>("meta")) ?? { next: 0, claimed: false, finished: false, cancelRequested: false };
    return this.meta;
  }

  private idleLimitMs(): number {
    const loaded = loadSettings(this.env);
    return loaded.ok ? loaded.settings.runs.idleTimeoutMs : DEFAULT_IDLE_MS;
  }

  /**
   * Takes the run id for one run. The object is single-threaded, so of two racing starts
   * exactly one wins. With an owner, the hub also answers for the run's record.
   */
  async claim(owner?: RunOwner): Promise<boolean> {
    const meta = await this.load();
    if (meta.claimed || meta.next > 0) return false;
    meta.claimed = true;
    meta.lastActivityAt = Date.now();
    if (owner) {
      meta.owner = owner;
      meta.recordOpen = true;
    }
    // Issued together: the object's storage commits them as one write.
    await Promise.all([this.ctx.storage.put("meta", meta), this.ctx.storage.setAlarm(Date.now() + this.idleLimitMs())]);
    return true;
  }

  /**
   * Claims the run id and stores the run's first events (RUN_STARTED, numbered from 0) in one
   * round trip. False when the id was already taken; then nothing is stored.
   */
  async start(owner: RunOwner, first: AgentEvent[] = []): Promise<boolean> {
    if (!(await this.claim(owner))) return false;
    if (first.length > 0) await this.write(first, { from: 0 });
    return true;
  }

  /** A resume: the stream after `after`, or null when no run has this id. */
  async follow(after: number): Promise<ReadableStream<Uint8Array> | null> {
    const meta = await this.load();
    return meta.claimed || meta.next > 0 ? this.subscribe(after) : null;
  }

  /**
   * The run was refused before it was recorded (its start could not be written): once its
   * terminal event is delivered, the hub forgets it, so the same run id can be started again.
   * Done at the terminal append itself, so a client that saw the error can retry at once.
   */
  async refused(): Promise<void> {
    const meta = await this.load();
    meta.releaseOnEnd = true;
    meta.recordOpen = false;
    await this.ctx.storage.put("meta", meta);
  }

  /**
   * Appends the run's next events; answers whether the user asked to cancel it, and whether
   * someone follows the run live. The note rides with the batch: `recorded` says the run
   * recorded its end itself, so the hub has nothing to finish. It is applied before the
   * batch's events, which may hold the end.
   */
  async append(events: AgentEvent[], note: AppendNote = {}): Promise<AppendAnswer> {
    const { cancelRequested } = await this.write(events, note);
    return { cancelRequested, followed: this.subscribers.size > 0 };
  }

  /** Numbers, stores and delivers events: the run's batches, its first events (start), or the hub's own end. */
  private async write(events: AgentEvent[], note: AppendNote = {}): Promise<{ cancelRequested: boolean }> {
    const meta = await this.load();
    if (note.recorded) meta.recordOpen = false;
    if (meta.finished) {
      if (note.recorded) await this.ctx.storage.put("meta", meta);
      return { cancelRequested: meta.cancelRequested };
    }
    const numbered = this.number(meta, events, note.from);
    const entries: Record<string, AgentEvent> = {};
    meta.lastActivityAt = Date.now();
    for (const { seq, event } of numbered) {
      entries[`e:${String(seq).padStart(8, "0")}`] = event;
      if (isTerminalEvent(event)) {
        meta.finished = true;
        meta.finishedAt = Date.now();
        if (meta.recordOpen) meta.unrecordedEnd = recordedEnd(event);
      }
    }
    if (meta.finished && meta.releaseOnEnd) {
      this.deliver(numbered);
      await this.ctx.storage.deleteAlarm();
      await this.ctx.storage.deleteAll();
      this.meta = undefined;
      return { cancelRequested: false };
    }
    const writes = [this.ctx.storage.put({ ...entries, meta })];
    // An end the run could not record is finished by the alarm, first soon, then with backoff.
    if (meta.finished) writes.push(this.ctx.storage.setAlarm(Date.now() + (meta.unrecordedEnd ? closeRetryDelay(0) : RETAIN_MS)));
    await Promise.all(writes);
    this.deliver(numbered);
    return { cancelRequested: meta.cancelRequested };
  }

  /**
   * The run's own numbers when it gave them, else on from the last. A number already stored is
   * never written again; a gap (a batch whose append failed) stays a gap, so every id a client
   * saw on the live stream means the same event here.
   */
  private number(meta: Meta, events: AgentEvent[], from: number | undefined) {
    const first = from !== undefined && Number.isSafeInteger(from) && from >= 0 ? from : meta.next;
    if (first > meta.next) log.warn("run_hub.events_missing", { run_id: meta.owner?.runId, missing: first - meta.next });
    const numbered = events.map((event, i) => ({ seq: first + i, event })).filter(({ seq }) => seq >= meta.next);
    meta.next = Math.max(meta.next, first + events.length);
    return numbered;
  }

  /** Live delivery; after the run's end every subscriber's stream is closed. */
  private deliver(numbered: { seq: number; event: AgentEvent }[]): void {
    for (const { seq, event } of numbered) for (const subscriber of this.subscribers) subscriber.push(seq, event);
    if (!this.meta?.finished) return;
    for (const subscriber of this.subscribers) subscriber.end();
    this.subscribers.clear();
  }

  async info(): Promise<{ exists: boolean; finished: boolean; events: number }> {
    const meta = await this.load();
    return { exists: meta.claimed || meta.next > 0, finished: meta.finished, events: meta.next };
  }

  /** Whether the user asked to cancel: read only, for a run that has nothing to append (waiting on its model). */
  async isCancelRequested(): Promise<boolean> {
    return (await this.load()).cancelRequested;
  }

  /** Asks the run to stop. The run answers with a terminal event of its own. */
  async cancel(): Promise<{ exists: boolean; finished: boolean }> {
    const meta = await this.load();
    if (meta.next > 0 && !meta.finished && !meta.cancelRequested) {
      meta.cancelRequested = true;
      await this.ctx.storage.put("meta", meta);
    }
    return { exists: meta.next > 0, finished: meta.finished };
  }

  /** Ends a run silent past the idle limit now, rather than when the alarm gets to it. */
  private async abandonIfIdle(meta: Meta): Promise<void> {
    if (meta.finished || !(meta.claimed || meta.next > 0)) return;
    if (Date.now() < (meta.lastActivityAt ?? 0) + this.idleLimitMs()) return;
    if (meta.owner) meta.recordOpen = true;
    await this.write([agUi.runError("RUN_ABANDONED", "the run stopped without finishing; please start it again")]);
  }

  /** SSE bytes: every event with seq > after, then live ones until the run ends. */
  private async subscribe(after: number): Promise<ReadableStream<Uint8Array>> {
    const meta = await this.load();
    // A follower of a run that went silent gets its end at once, not after the next alarm.
    await this.abandonIfIdle(meta);
    // Read back as written, not validated: only write() (from start and append) stores these
    // keys, with the AgentEvents our own run built (the hub is reachable only through the
    // RUN_HUB binding, never by a client), and they are only re-sent as they were sent live.
    // Parsing every event again on each resume would cost time and guard against nothing a
    // caller controls. Events kept from an earlier deploy (at most RETAIN_MS old) replay as
    // they were first streamed, which is what a resume must show.
    const stored = await this.ctx.storage.list<AgentEvent>({ prefix: "e:", start: `e:${String(after + 1).padStart(8, "0")}` });
    let subscriber: Subscriber | undefined;
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        let last = after;
        for (const [key, event] of stored) {
          last = Number(key.slice(2));
          controller.enqueue(sseFrame(last, event));
        }
        if (meta.finished) {
          controller.close();
          return;
        }
        subscriber = {
          after: last,
          push: (seq, event) => {
            if (seq <= last) return; // already replayed from storage
            last = seq;
            try {
              controller.enqueue(sseFrame(seq, event));
            } catch {
              this.subscribers.delete(subscriber!);
            }
          },
          end: () => {
            try {
              controller.close();
            } catch {
              // already closed by the client
            }
          },
        };
        this.subscribers.add(subscriber);
      },
      cancel: () => {
        if (subscriber) this.subscribers.delete(subscriber);
      },
    });
  }

  /**
   * One of: a run still going (silent past the idle limit: its Worker is gone, end it for its
   * followers; otherwise look again when it would be), an end to record, or retention over.
   */
  override async alarm(): Promise<void> {
    const meta = await this.load();
    const now = Date.now();
    if (!meta.finished && (meta.claimed || meta.next > 0)) {
      const idleUntil = (meta.lastActivityAt ?? 0) + this.idleLimitMs();
      if (now < idleUntil) {
        await this.ctx.storage.setAlarm(idleUntil);
        return;
      }
      // The record is the hub's to finish now: whatever the Worker meant to write is lost.
      await this.abandonIfIdle(meta);
      return; // write set the next alarm
    }
    const retainUntil = (meta.finishedAt ?? now) + RETAIN_MS;
    if (meta.unrecordedEnd && meta.recordOpen && meta.owner) {
      const closed = await closeRunRecord(this.env, meta.owner, meta.unrecordedEnd).catch(() => false);
      if (closed || now >= retainUntil) {
        if (!closed) log.error("run_hub.record_unfinished", { run_id: meta.owner.runId, attempts: meta.closeAttempts });
        meta.recordOpen = false;
        meta.unrecordedEnd = undefined;
        await this.ctx.storage.put("meta", meta);
        await this.ctx.storage.setAlarm(Math.max(retainUntil, now + 1));
        return;
      }
      meta.closeAttempts = (meta.closeAttempts ?? 0) + 1;
      await this.ctx.storage.put("meta", meta);
      await this.ctx.storage.setAlarm(now + closeRetryDelay(meta.closeAttempts));
      return;
    }
    if (meta.finished && now < retainUntil) {
      await this.ctx.storage.setAlarm(retainUntil);
      return;
    }
    await this.ctx.storage.deleteAll();
    this.meta = undefined;
  }
}

/** The hub of one user's run. Keyed by the verified user, so guessing a run id reaches nothing. */
export function runHub(env: Env, userId: string, runId: string) {
  return env.RUN_HUB.get(env.RUN_HUB.idFromName(`${userId}:${runId}`));
}
