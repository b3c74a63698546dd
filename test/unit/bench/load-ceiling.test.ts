import { expect, test } from "vitest";
import { loadCeiling } from "../../bench/support/load-ceiling.ts";

test("a main thread busy all the time, with no wait for a core, is the bound the rate meets", () => {
  const ceiling = loadCeiling({ runs: 500, wallMs: 20_000, mainIdleShare: 0, mainQueuedMs: 0, cpuMs: 500 * 50, cores: 2 });
  expect(ceiling.measuredPerSecond).toBe(25);
  expect(ceiling.mainThreadMsPerRun).toBe(40);
  expect(ceiling.mainThreadPerSecond).toBe(25);
  expect(ceiling.coresPerSecond).toBe(40);
  expect(ceiling.boundPerSecond).toBe(25);
  expect(ceiling.shareOfBound).toBe(1);
});

test("time the main thread waited for a core, or sat idle, is not its own: the bound rises above the rate", () => {
  const ceiling = loadCeiling({ runs: 400, wallMs: 20_000, mainIdleShare: 0.1, mainQueuedMs: 2_000, cpuMs: 400 * 30, cores: 2 });
  expect(ceiling.mainThreadMsPerRun).toBe((18_000 - 2_000) / 400);
  expect(ceiling.mainThreadPerSecond).toBe(25);
  expect(ceiling.measuredPerSecond).toBe(20);
  expect(ceiling.shareOfBound).toBeCloseTo(0.8);
});

test("when the stack's CPU per run fills the cores first, they are the bound", () => {
  const ceiling = loadCeiling({ runs: 400, wallMs: 20_000, mainIdleShare: 0.5, mainQueuedMs: 0, cpuMs: 400 * 100, cores: 2 });
  expect(ceiling.coresPerSecond).toBe(20);
  expect(ceiling.mainThreadPerSecond).toBe(40);
  expect(ceiling.boundPerSecond).toBe(20);
});
