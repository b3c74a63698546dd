// The pipe from a run to its hub: order kept across batches, same-tick events batched, a
// cancel answer reaching the run, and appends paced to a bounded number per interval.
import { afterEach, describe, expect, test, vi } from "vitest";
import { eventPipe } from "../../../functions/agent/run-hub/event-pipe.ts";
import { type AgentEvent, agUi } from "../../../functions/agent/runtime/ag-ui-events.ts";

const event = (n: number) => agUi.custom("n", n);
const numberOf = (event: AgentEvent) => (event.type === "CUSTOM" ? event.value : undefined);

afterEach(() => {
  vi.useRealTimers(); // after the tests that use fake ones
});

/** With fake timers: `work` settles when `ms` have passed, and not a moment before. */
async function expectSettledAt(work: Promise<unknown>, ms: number) {
  let settled = false;
  const done = () => {
    settled = true;
  };
  void work.then(done, done);
  await vi.advanceTimersByTimeAsync(ms - 1);
  expect(settled).toBe(false);
  await vi.advanceTimersByTimeAsync(1);
  expect(settled).toBe(true);
}

describe("eventPipe", () => {
  test("keeps order across batches even when the hub answers slowly, and batches one tick's events", async () => {
    const batches: unknown[][] = [];
    const hub = {
      append: async (events: AgentEvent[]) => {
        await new Promise((r) => setTimeout(r, batches.length === 0 ? 20 : 0)); // the first answer is the slowest
        batches.push(events.map(numberOf));
        return { cancelRequested: false };
      },
    };
    const pipe = eventPipe(hub, () => {});
    for (const n of [0, 1, 2]) pipe.emit(event(n));
    await new Promise((r) => setTimeout(r, 1));
    for (const n of [3, 4]) pipe.emit(event(n));
    await pipe.drain();
    expect(batches.flat()).toEqual([0, 1, 2, 3, 4]);
    expect(batches[0]).toEqual([0, 1, 2]);
  });

  test("drain resolves only after every emitted event reached the hub, and reports a cancel", async () => {
    let delivered = 0;
    let cancelled = false;
    const pipe = eventPipe(
      {
        append: async (events) => {
          delivered += events.length;
          return { cancelRequested: delivered >= 3 };
        },
      },
      () => (cancelled = true),
    );
    pipe.emit(event(1));
    pipe.emit(event(2));
    pipe.emit(event(3));
    await pipe.drain();
    expect(delivered).toBe(3);
    expect(cancelled).toBe(true);
  });

  test("the recorded note rides with the next batch, the one that carries the end", async () => {
    const calls: { events: unknown[]; recorded: boolean }[] = [];
    const pipe = eventPipe(
      {
        append: async (events, note) => {
          calls.push({ events: events.map(numberOf), recorded: note?.recorded === true });
          return { cancelRequested: false };
        },
      },
      () => {},
    );
    pipe.emit(event(1));
    await pipe.drain();
    pipe.markRecorded();
    pipe.emit(event(2));
    await pipe.drain();
    expect(calls).toEqual([
      { events: [1], recorded: false },
      { events: [2], recorded: true },
    ]);
  });

  test("a recorded note with nothing after it still reaches the hub on drain, once", async () => {
    const notes: boolean[] = [];
    const pipe = eventPipe(
      {
        append: async (events, note) => {
          notes.push(events.length === 0 && note?.recorded === true);
          return { cancelRequested: false };
        },
      },
      () => {},
    );
    pipe.markRecorded();
    await pipe.drain();
    await pipe.drain();
    expect(notes).toEqual([true]);
  });

  describe("pacing", () => {
    const delta = (n: number) => agUi.textContent("m", `${n} `);
    const deltasOf = (events: AgentEvent[]) => events.map((e) => (e.type === "TEXT_MESSAGE_CONTENT" ? e.delta : e.type));
    const pacedPipe = () => {
      const batches: AgentEvent[][] = [];
      const pipe = eventPipe(
        {
          append: async (events) => {
            batches.push(events);
            return { cancelRequested: false };
          },
        },
        () => {},
        { hubIntervalMs: 50 },
      );
      return { pipe, batches };
    };

    test("a delta per token for a second becomes about one append per interval, in order", async () => {
      vi.useFakeTimers();
      const { pipe, batches } = pacedPipe();
      for (let n = 0; n < 100; n++) {
        pipe.emit(delta(n));
        await vi.advanceTimersByTimeAsync(10);
      }
      await pipe.drain();
      expect(batches.flat().map((e) => (e.type === "TEXT_MESSAGE_CONTENT" ? e.delta : ""))).toEqual(
        Array.from({ length: 100 }, (_, n) => `${n} `),
      );
      // 1000 ms at one append per 50 ms, plus the first one at once and the drain.
      expect(batches.length).toBeGreaterThanOrEqual(18);
      expect(batches.length).toBeLessThanOrEqual(22);
    });

    test("the first event after a quiet spell goes at once; later ones wait for the interval, whatever their type", async () => {
      vi.useFakeTimers();
      const { pipe, batches } = pacedPipe();
      pipe.emit(delta(1));
      await vi.advanceTimersByTimeAsync(0);
      expect(batches.map(deltasOf)).toEqual([["1 "]]);
      pipe.emit(delta(2));
      pipe.emit(agUi.textEnd("m"));
      pipe.emit(agUi.toolCallStart("c1", "project_cli", "m"));
      await vi.advanceTimersByTimeAsync(49);
      expect(batches).toHaveLength(1); // paced: a tool call waits like text
      await vi.advanceTimersByTimeAsync(1);
      expect(batches.map(deltasOf)).toEqual([["1 "], ["2 ", "TEXT_MESSAGE_END", "TOOL_CALL_START"]]);
      await vi.advanceTimersByTimeAsync(500); // quiet: the next event goes at once
      pipe.emit(agUi.toolCallEnd("c1"));
      await vi.advanceTimersByTimeAsync(0);
      expect(batches.map(deltasOf).at(-1)).toEqual(["TOOL_CALL_END"]);
    });

    test("when the first events went with the hub's start, pacing counts from then", async () => {
      vi.useFakeTimers();
      const batches: AgentEvent[][] = [];
      const append = async (events: AgentEvent[]) => {
        batches.push(events);
        return { cancelRequested: false };
      };
      const pipe = eventPipe({ append }, () => {}, { hubIntervalMs: 50, appendedAt: Date.now() });
      await vi.advanceTimersByTimeAsync(10);
      pipe.emit(delta(1)); // 10 ms after the start's append: waits
      await vi.advanceTimersByTimeAsync(39);
      expect(batches).toHaveLength(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(batches.map(deltasOf)).toEqual([["1 "]]);
    });

    test("the live stream and the hub keep their own cadence; both get every event, in order, and the end at once", async () => {
      vi.useFakeTimers();
      const appends: AgentEvent[][] = [];
      const live: { from: number; events: AgentEvent[] }[] = [];
      const pipe = eventPipe(
        {
          append: async (events) => {
            appends.push(events);
            return { cancelRequested: false };
          },
        },
        () => {},
        { liveIntervalMs: 50, hubIntervalMs: 250, onBatch: (from, events) => live.push({ from, events }) },
      );
      for (let n = 0; n < 100; n++) {
        pipe.emit(delta(n));
        await vi.advanceTimersByTimeAsync(10);
      }
      pipe.emit(agUi.runError("MODEL_ERROR", "boom"));
      await vi.advanceTimersByTimeAsync(0);
      const all = [...Array.from({ length: 100 }, (_, n) => `${n} `), "RUN_ERROR"];
      expect(appends.flatMap(deltasOf)).toEqual(all);
      expect(live.flatMap((batch) => deltasOf(batch.events))).toEqual(all);
      // Numbered as emitted: each live batch starts where the one before it ended.
      expect(live.map((batch) => batch.from)).toEqual(live.map((_, i) => live.slice(0, i).reduce((n, b) => n + b.events.length, 0)));
      // 1000 ms: one chunk per 50 ms to the live stream, one append per 250 ms to the hub,
      // plus the first of each at once and the end.
      expect(live.length).toBeGreaterThanOrEqual(19);
      expect(live.length).toBeLessThanOrEqual(22);
      expect(appends.length).toBeGreaterThanOrEqual(5);
      expect(appends.length).toBeLessThanOrEqual(6);
      expect(appends.at(-1)!.at(-1)!.type).toBe("RUN_ERROR");
      expect(live.at(-1)!.events.at(-1)!.type).toBe("RUN_ERROR");
    });

    test("by default the live stream gets a chunk per 50 ms and the hub an append per second (decision D44)", async () => {
      vi.useFakeTimers();
      let appends = 0;
      let chunks = 0;
      const pipe = eventPipe(
        {
          append: async () => {
            appends++;
            return { cancelRequested: false };
          },
        },
        () => {},
        { onBatch: () => chunks++ },
      );
      for (let n = 0; n < 200; n++) {
        pipe.emit(delta(n)); // a delta every 10 ms for 2 s
        await vi.advanceTimersByTimeAsync(10);
      }
      expect(chunks).toBeGreaterThanOrEqual(39);
      expect(chunks).toBeLessThanOrEqual(41);
      expect(appends).toBeGreaterThanOrEqual(2);
      expect(appends).toBeLessThanOrEqual(3);
    });

    test("while the hub answers that a client follows the run, it gets the live stream's cadence", async () => {
      vi.useFakeTimers();
      let followers = true;
      const appendedAt: number[] = [];
      const pipe = eventPipe(
        {
          append: async () => {
            appendedAt.push(Date.now());
            return { cancelRequested: false, followed: followers };
          },
        },
        () => {},
        { liveIntervalMs: 50, hubIntervalMs: 1_000, onBatch: () => {} },
      );
      const began = Date.now();
      for (let n = 0; n < 100; n++) {
        pipe.emit(delta(n)); // a delta every 10 ms for 1 s, followed
        await vi.advanceTimersByTimeAsync(10);
      }
      expect(appendedAt.length).toBeGreaterThanOrEqual(19);
      expect(appendedAt.length).toBeLessThanOrEqual(21);
      followers = false; // the follower left: the next answer says so
      const whenLeft = appendedAt.length;
      for (let n = 100; n < 300; n++) {
        pipe.emit(delta(n)); // 2 s more
        await vi.advanceTimersByTimeAsync(10);
      }
      // One more at the live cadence (its answer brings the news), then one a second.
      expect(appendedAt.length - whenLeft).toBeGreaterThanOrEqual(2);
      expect(appendedAt.length - whenLeft).toBeLessThanOrEqual(4);
      expect(appendedAt[0]).toBe(began);
    });

    test("the run's end goes at once and takes every waiting event with it, in one append", async () => {
      vi.useFakeTimers();
      const { pipe, batches } = pacedPipe();
      pipe.emit(agUi.custom("started", 0));
      await vi.advanceTimersByTimeAsync(0);
      for (let n = 1; n <= 5; n++) {
        pipe.emit(delta(n)); // a fast run: its steps a few milliseconds apart
        await vi.advanceTimersByTimeAsync(3);
      }
      pipe.emit(agUi.runError("MODEL_ERROR", "boom"));
      await vi.advanceTimersByTimeAsync(0);
      expect(batches.map(deltasOf)).toEqual([["CUSTOM"], ["1 ", "2 ", "3 ", "4 ", "5 ", "RUN_ERROR"]]);
      await vi.advanceTimersByTimeAsync(100); // the cancelled timer sends nothing more
      expect(batches).toHaveLength(2);
    });
  });
});

describe("eventPipe while the run is silent", () => {
  test("asks the hub about a cancel once the run has been silent for the poll interval, and stops asking after it", async () => {
    let asked = 0;
    let requested = false;
    let cancelled = 0;
    const pipe = eventPipe(
      {
        append: async () => ({ cancelRequested: false }),
        isCancelRequested: async () => {
          asked++;
          return requested;
        },
      },
      () => cancelled++,
      { cancelPollMs: 10 },
    );
    pipe.emit(event(1)); // RUN_STARTED-like: then the model "thinks" and nothing is emitted
    await new Promise((r) => setTimeout(r, 45));
    expect(asked).toBeGreaterThan(0);
    expect(cancelled).toBe(0);
    requested = true;
    await vi.waitFor(() => expect(cancelled).toBe(1));
    const askedAtCancel = asked;
    await new Promise((r) => setTimeout(r, 40));
    expect(asked).toBe(askedAtCancel);
    expect(cancelled).toBe(1);
    pipe.stop();
  });

  test("does not poll while events flow, and never after the run's terminal event or stop()", async () => {
    let asked = 0;
    const hub = {
      append: async () => ({ cancelRequested: false }),
      isCancelRequested: async () => {
        asked++;
        return false;
      },
    };
    const flowing = eventPipe(hub, () => {}, { cancelPollMs: 20 });
    for (let n = 0; n < 8; n++) {
      flowing.emit(event(n));
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(asked).toBe(0);
    flowing.emit(
      agUi.runFinished("t", "r", { step_count: 0, usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0, by_stage: {} } }, []),
    );
    await flowing.drain();
    await new Promise((r) => setTimeout(r, 60));
    expect(asked).toBe(0);

    const stopped = eventPipe(hub, () => {}, { cancelPollMs: 10 });
    stopped.stop();
    await new Promise((r) => setTimeout(r, 40));
    expect(asked).toBe(0);
  });

  test("numbers events from firstSeq: each batch goes to onBatch when due and to the hub with where it starts", async () => {
    const appends: { events: unknown[]; from: number | undefined }[] = [];
    const live: { events: unknown[]; from: number }[] = [];
    let answer = () => {};
    const pipe = eventPipe(
      {
        append: async (events, note) => {
          await new Promise<void>((resolve) => (answer = resolve)); // the hub answers when told
          appends.push({ events: events.map(numberOf), from: note?.from });
          return { cancelRequested: false };
        },
      },
      () => {},
      { firstSeq: 1, liveIntervalMs: 0, hubIntervalMs: 0, onBatch: (from, events) => live.push({ from, events: events.map(numberOf) }) },
    );
    pipe.emit(event(10));
    pipe.emit(event(11));
    await new Promise((r) => setTimeout(r, 1));
    pipe.emit(event(12));
    await new Promise((r) => setTimeout(r, 1));
    // both batches are live while the hub has not answered the first
    expect(live).toEqual([
      { from: 1, events: [10, 11] },
      { from: 3, events: [12] },
    ]);
    expect(appends).toEqual([]);
    answer();
    await new Promise((r) => setTimeout(r, 1));
    answer();
    await pipe.drain();
    expect(appends).toEqual([
      { events: [10, 11], from: 1 },
      { events: [12], from: 3 },
    ]);
  });

  test("a hub that does not answer is given up on after the deadline: the run is not held, and the next batch still goes", async () => {
    vi.useFakeTimers();
    const stored: { from: number | undefined; events: unknown[] }[] = [];
    const failures: string[] = [];
    let calls = 0;
    const pipe = eventPipe(
      {
        append: (events, note) => {
          if (calls++ === 0) return new Promise(() => {}); // never answers
          stored.push({ from: note?.from, events: events.map(numberOf) });
          return Promise.resolve({ cancelRequested: false });
        },
      },
      () => {},
      { hubIntervalMs: 0, hubTimeoutMs: 1_000, onAppendFailed: (error) => failures.push((error as Error).name) },
    );
    pipe.emit(event(0));
    await expectSettledAt(pipe.drain(), 1_000);
    expect(failures).toEqual(["TimeoutError"]);
    pipe.emit(event(1));
    await pipe.drain();
    expect(stored).toEqual([{ from: 1, events: [1] }]);
  });

  test("a failed append costs the hub that batch only: later batches go with their own numbers, and drain resolves", async () => {
    const stored: { from: number | undefined; events: unknown[] }[] = [];
    const failures: number[] = [];
    let calls = 0;
    const pipe = eventPipe(
      {
        append: async (events, note) => {
          if (calls++ === 0) throw new Error("hub unreachable");
          stored.push({ from: note?.from, events: events.map(numberOf) });
          return { cancelRequested: false };
        },
      },
      () => {},
      { hubIntervalMs: 0, onAppendFailed: (_error, events) => failures.push(events) },
    );
    pipe.emit(event(0));
    pipe.emit(event(1));
    await pipe.drain();
    pipe.emit(event(2));
    await expect(pipe.drain()).resolves.toBeUndefined();
    expect(failures).toEqual([2]);
    expect(stored).toEqual([{ from: 2, events: [2] }]);
  });
});

describe("eventPipe at the run's finish line (settle)", () => {
  test("asks the hub whether a cancel came first, after the append in flight, and stores nothing", async () => {
    const calls: string[] = [];
    let answerAppend = () => {};
    let cancelled = 0;
    const pipe = eventPipe(
      {
        append: async (events) => {
          calls.push(`append ${events.map(numberOf).join(",")}`);
          await new Promise<void>((resolve) => (answerAppend = resolve));
          calls.push("append answered");
          return { cancelRequested: false };
        },
        isCancelRequested: async () => {
          calls.push("asked");
          return true;
        },
      },
      () => cancelled++,
      { hubIntervalMs: 1_000 },
    );
    pipe.emit(event(1)); // goes at once: in flight until answered
    await new Promise((r) => setTimeout(r, 1));
    pipe.emit(event(2)); // waits for the hub's interval
    const settled = pipe.settle();
    await new Promise((r) => setTimeout(r, 1));
    expect(calls).toEqual(["append 1"]); // not asked before the append in flight answers
    answerAppend();
    await settled;
    expect(calls).toEqual(["append 1", "append answered", "asked"]);
    expect(cancelled).toBe(1);
    const drained = pipe.drain(); // what waited goes with the run's end
    await new Promise((r) => setTimeout(r, 1));
    answerAppend();
    await drained;
    expect(calls.slice(3)).toEqual(["append 2", "append answered"]);
    pipe.stop();
  });

  test("a hub that does not answer counts as no cancel once the deadline passes", async () => {
    vi.useFakeTimers();
    let cancelled = 0;
    const pipe = eventPipe(
      { append: async () => ({ cancelRequested: false }), isCancelRequested: () => new Promise<boolean>(() => {}) },
      () => cancelled++,
      { hubTimeoutMs: 1_000 },
    );
    await expectSettledAt(pipe.settle(), 1_000);
    expect(cancelled).toBe(0);
    pipe.stop();
  });

  test("a hub without the read learns of a cancel from a drain instead", async () => {
    const sent: unknown[][] = [];
    let cancelled = 0;
    const pipe = eventPipe(
      {
        append: async (events) => {
          sent.push(events.map(numberOf));
          return { cancelRequested: true };
        },
      },
      () => cancelled++,
      { hubIntervalMs: 1_000, appendedAt: Date.now() },
    );
    pipe.emit(event(1));
    await pipe.settle();
    expect(sent).toEqual([[1]]);
    expect(cancelled).toBe(1);
  });
});
