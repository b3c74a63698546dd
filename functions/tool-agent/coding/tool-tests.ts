// A candidate tool's tests, as the coding agent writes them (tests.json): calls with the input
// to send and what the answer must hold. `expect` is matched as a subset: every field it names
// must be in the answer with an equal value (arrays element by element), other fields may be
// there too. Pure; running the calls is candidate-runner.ts.
import { z } from "zod";

export const ToolTestCase = z.strictObject({
  name: z.string().max(200).optional(),
  input: z.record(z.string(), z.unknown()),
  expect: z.unknown(),
});
export type ToolTestCase = z.infer<typeof ToolTestCase>;

export const MAX_TEST_CASES = 50;
const ToolTests = z.array(ToolTestCase).min(1, { error: "write at least one test case" }).max(MAX_TEST_CASES);

export type ParsedTests = { ok: true; cases: ToolTestCase[] } | { ok: false; problem: string };

export function parseToolTests(text: string): ParsedTests {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, problem: "tests.json is not JSON" };
  }
  const parsed = ToolTests.safeParse(json);
  if (parsed.success) return { ok: true, cases: parsed.data };
  const issue = parsed.error.issues[0];
  return {
    ok: false,
    problem:
      `tests.json must be a list of {"name", "input": {...}, "expect": ...}: ${issue?.path.join(".") || "(top)"} ${issue?.message ?? ""}`.trim(),
  };
}

const show = (value: unknown) => JSON.stringify(value)?.slice(0, 200) ?? "undefined";

/** undefined when `actual` holds `expected`; else where and how they differ. */
export function mismatch(expected: unknown, actual: unknown, at = "result"): string | undefined {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${at}: expected an array, got ${show(actual)}`;
    if (actual.length !== expected.length) return `${at}: expected ${expected.length} items, got ${actual.length}`;
    for (const [i, item] of expected.entries()) {
      const problem = mismatch(item, actual[i], `${at}[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  }
  if (typeof expected === "object" && expected !== null) {
    if (typeof actual !== "object" || actual === null || Array.isArray(actual)) return `${at}: expected an object, got ${show(actual)}`;
    for (const [key, value] of Object.entries(expected)) {
      const problem = mismatch(value, (actual as Record<string, unknown>)[key], `${at}.${key}`);
      if (problem) return problem;
    }
    return undefined;
  }
  // Numbers a tool computes may carry float noise: equal to 9 significant digits is equal.
  if (typeof expected === "number" && typeof actual === "number") {
    return Math.abs(expected - actual) <= 1e-9 * Math.max(1, Math.abs(expected)) ? undefined : `${at}: expected ${expected}, got ${actual}`;
  }
  return Object.is(expected, actual) ? undefined : `${at}: expected ${show(expected)}, got ${show(actual)}`;
}
