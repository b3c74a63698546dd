// Runs a candidate tool's tests in the sandbox local tools run in (the Dynamic Worker Loader,
// the same guarded modules, limits and deadline), so a tool that passes here behaves the same
// once registered. The isolate is keyed by a hash of the code: new code loads anew.

import { checkAgainstSchema, describeProblems } from "../registry/json-schema.ts";
import type { LocalCallOptions } from "../sources/local-source.ts";
import { callSandbox, sandboxCode } from "../sources/local-source.ts";
import { ToolCodeError } from "../sources/loop-guard.ts";
import { checkToolModule } from "../sources/sandbox-modules.ts";
import { mismatch, type ToolTestCase } from "./tool-tests.ts";

export interface CaseResult {
  name: string;
  ok: boolean;
  /** Why it failed: the tool's error, or where its answer differs from `expect`. */
  problem?: string;
  output?: unknown;
}

export type CandidateRun =
  | { status: "passed" | "failed"; passed: number; failed: number; cases: CaseResult[] }
  /** The module did not load: a syntax error (with line and column) or no default export. */
  | { status: "error"; message: string };

export type SandboxOptions = Pick<LocalCallOptions, "loader" | "limits" | "timeoutMs" | "maxBodyBytes">;

const OUTPUT_SHOWN_CHARS = 500;

async function codeHash(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** What a model may see of an answer: small ones whole, large ones cut. */
function shown(output: unknown): unknown {
  const text = JSON.stringify(output) ?? "null";
  return text.length <= OUTPUT_SHOWN_CHARS ? output : `${text.slice(0, OUTPUT_SHOWN_CHARS)}... (${text.length} characters)`;
}

/** `outputSchema`, when given, is checked against every answer too (registration does). */
export async function runCandidate(
  moduleText: string,
  cases: readonly ToolTestCase[],
  options: SandboxOptions & { outputSchema?: Record<string, unknown> },
): Promise<CandidateRun> {
  try {
    checkToolModule(moduleText);
  } catch (error) {
    if (error instanceof ToolCodeError) return { status: "error", message: error.message };
    throw error;
  }
  const stub = options.loader.get(`candidate:${await codeHash(moduleText)}`, () =>
    sandboxCode(moduleText, { allowNetwork: false, limits: options.limits }),
  );
  const results: CaseResult[] = [];
  for (const [i, testCase] of cases.entries()) {
    const name = testCase.name ?? `case ${i + 1}`;
    const outcome = await callSandbox(stub, { endpoint_path: "/", http_method: "POST" }, testCase.input, options);
    if (!outcome.ok) {
      results.push({ name, ok: false, problem: outcome.message });
      continue;
    }
    const output = "result" in outcome ? outcome.result : undefined;
    const schemaProblems = options.outputSchema ? checkAgainstSchema(options.outputSchema, output) : undefined;
    const problem = schemaProblems
      ? `the answer does not match output_schema: ${describeProblems(schemaProblems)}`
      : mismatch(testCase.expect, output);
    results.push({ name, ok: !problem, ...(problem ? { problem } : {}), output: shown(output) });
  }
  const passed = results.filter((r) => r.ok).length;
  return { status: passed === results.length ? "passed" : "failed", passed, failed: results.length - passed, cases: results };
}
