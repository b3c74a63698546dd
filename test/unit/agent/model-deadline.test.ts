// The deadline on a model call's silence: it ends the call once the model has sent nothing for
// the whole window, every part starts the window again, and it never fires once stopped.
import { afterEach, expect, test, vi } from "vitest";
import { ModelSilent, silenceDeadline } from "../../../functions/agent/runtime/model-deadline.ts";

afterEach(() => {
  vi.useRealTimers();
});

test("silence for the whole window aborts the call with ModelSilent, not a moment before", async () => {
  vi.useFakeTimers();
  const deadline = silenceDeadline(1_000, new AbortController().signal);
  await vi.advanceTimersByTimeAsync(999);
  expect(deadline.signal.aborted).toBe(false);
  expect(deadline.expired()).toBeUndefined();
  await vi.advanceTimersByTimeAsync(1);
  expect(deadline.signal.aborted).toBe(true);
  expect(deadline.signal.reason).toBeInstanceOf(ModelSilent);
  expect(deadline.expired()).toBe(deadline.signal.reason);
});

test("each part heard starts the window again", async () => {
  vi.useFakeTimers();
  const deadline = silenceDeadline(1_000);
  for (let i = 0; i < 5; i++) {
    await vi.advanceTimersByTimeAsync(900);
    deadline.heard();
  }
  expect(deadline.signal.aborted).toBe(false);
  await vi.advanceTimersByTimeAsync(1_000);
  expect(deadline.expired()).toBeInstanceOf(ModelSilent);
});

test("a stopped deadline never fires, and the run's cancel passes through without being called silence", async () => {
  vi.useFakeTimers();
  const stopped = silenceDeadline(1_000);
  stopped.stop();
  await vi.advanceTimersByTimeAsync(5_000);
  expect(stopped.signal.aborted).toBe(false);

  const cancel = new AbortController();
  const deadline = silenceDeadline(1_000, cancel.signal);
  cancel.abort(new Error("cancelled by the user"));
  expect(deadline.signal.aborted).toBe(true);
  expect(deadline.expired()).toBeUndefined();
  deadline.stop();
});
