import { expect, test } from "vitest";
import { LookupBudget } from "../../../functions/tool-agent/auth/lookup-budget.ts";

test("a burst of the per-second budget, then one token per 1/rate seconds", () => {
  const budget = new LookupBudget(5, 0);
  expect(Array.from({ length: 7 }, () => budget.take(0))).toEqual([true, true, true, true, true, false, false]);
  expect(budget.take(100)).toBe(false); // 0.5 token
  expect(budget.take(200)).toBe(true); // one full token after 200 ms at 5/s
  expect(budget.take(200)).toBe(false);
  // Refills to the burst size, not beyond.
  expect(Array.from({ length: 7 }, () => budget.take(60_000)).filter(Boolean).length).toBe(5);
});

test("a refund gives a token back, up to the burst", () => {
  const budget = new LookupBudget(2, 0);
  expect(budget.take(0)).toBe(true);
  expect(budget.take(0)).toBe(true);
  expect(budget.take(0)).toBe(false);
  budget.refund();
  expect(budget.take(0)).toBe(true);
  budget.refund();
  budget.refund();
  budget.refund();
  expect([budget.take(0), budget.take(0), budget.take(0)]).toEqual([true, true, false]);
});
