// RunHub: one Durable Object per (user, run). It is the run's event log: it numbers every
// event (the SSE `id:`), keeps them in its storage, and streams them to every subscriber,
// first the ones a subscriber missed, then the rest live, in one order for everyone. The
// POST that starts a run and every resume are subscriptions alike, so a resumed stream cannot
// differ from the original. It also carries the cancel flag the run checks on each append.
import { type BaseEvent, EventType } from "@ag-ui/core";
import { EventEncoder } from "@ag-ui/encoder";
import { DurableObject } from "cloudflare:workers";

/** How long a finished run's events stay available for resume. */
const RETAIN_MS = 24 * 60 * 60 * 1000;
/** A run still open this long after it started has lost its Worker; followers are released. */
export const ABANDON_AFTER_MS = 15 * 60 * 1000;

interface Meta {
  next: number;
  claimed: boolean;
  finished: boolean;
  cancelRequested: boolean;
}

const isTerminal = (event: BaseEvent) => event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR;

export class RunHub extends DurableObject<Env> {
  private meta: Meta | undefined;
  private readonly subscribers = new Set<{ after: number; push: (seq: number, event: BaseEvent) => void; end: () => void }>();
  private readonly encoder = new EventEncoder({ accept: "text/event-stream" });

  private async load(): Promise<Meta> {
    this.meta ??= (await this.ctx.storage.get<Meta>("meta")) ?? { next: 0, claimed: false, finished: false, cancelRequested: false };
    return this.meta;
  }

  /** Takes the run id for one run. The object is single-threaded, so of two racing starts exactly one wins. */
  async claim(): Promise<boolean> {
    const meta = await this.load();
    if (meta.claimed || meta.next > 0) return false;
    meta.claimed = true;
    await this.ctx.storage.put("meta", meta);
    await this.ctx.storage.setAlarm(Date.now() + ABANDON_AFTER_MS);
    return true;
  }

  /** Appends the run's next events; answers whether the user asked to cancel it. */
  async append(events: BaseEvent[]): Promise<{ cancelRequested: boolean }> {
    const meta = await this.load();
    if (meta.finished) return { cancelRequested: meta.cancelRequested };
    const entries: Record<string, BaseEvent> = {};
    const numbered = events.map((event) => ({ seq: meta.next++, event }));
    for (const { seq, event } of numbered) {
      entries[`e:${String(seq).padStart(8, "0")}`] = event;
      if (isTerminal(event)) meta.finished = true;
    }
    await this.ctx.storage.put({ ...entries, meta });
    for (const { seq, event } of numbered) for (const subscriber of this.subscribers) subscriber.push(seq, event);
    if (meta.finished) {
      for (const subscriber of this.subscribers) subscriber.end();
      this.subscribers.clear();
      await this.ctx.storage.setAlarm(Date.now() + RETAIN_MS);
    }
    return { cancelRequested: meta.cancelRequested };
  }

  async info(): Promise<{ exists: boolean; finished: boolean; events: number }> {
    const meta = await this.load();
    return { exists: meta.claimed || meta.next > 0, finished: meta.finished, events: meta.next };
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

  /** SSE bytes: every event with seq > after, then live ones until the run ends. */
  async subscribe(after: number): Promise<ReadableStream<Uint8Array>> {
    const meta = await this.load();
    const bytes = new TextEncoder();
    const frame = (seq: number, event: BaseEvent) => bytes.encode(`id: ${seq}\n${this.encoder.encodeSSE(event)}`);
    const stored = await this.ctx.storage.list<BaseEvent>({ prefix: "e:", start: `e:${String(after + 1).padStart(8, "0")}` });
    let subscriber: { after: number; push: (seq: number, event: BaseEvent) => void; end: () => void } | undefined;
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        let last = after;
        for (const [key, event] of stored) {
          last = Number(key.slice(2));
          controller.enqueue(frame(last, event));
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
              controller.enqueue(frame(seq, event));
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

  /** Either a run that never finished (its Worker is gone: end it for its followers) or retention over. */
  override async alarm(): Promise<void> {
    const meta = await this.load();
    if (!meta.finished && (meta.claimed || meta.next > 0)) {
      await this.append([{ type: EventType.RUN_ERROR, code: "RUN_ABANDONED", message: "the run stopped without finishing; please start it again", timestamp: Date.now() } as BaseEvent]);
      return; // append set the retention alarm
    }
    await this.ctx.storage.deleteAll();
    this.meta = undefined;
  }
}

/** The hub of one user's run. Keyed by the verified user, so guessing a run id reaches nothing. */
export function runHub(env: Env, userId: string, runId: string) {
  return env.RUN_HUB.get(env.RUN_HUB.idFromName(`${userId}:${runId}`));
}
