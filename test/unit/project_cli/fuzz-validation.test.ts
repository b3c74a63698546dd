// 100,000+ generated project_cli calls through the router's validation, in process: nothing a
// caller sends makes it throw or answer INTERNAL, and every refusal has the documented shape
// and echoes nothing the database could not store. (The database share is test/data/project_cli/fuzz.test.ts.)
import fc from "fast-check";
import { expect, test } from "vitest";
import { MODULES } from "../../../functions/project_cli/registry.ts";
import type { CliResult } from "../../../functions/project_cli/result.ts";
import { validateProjectCli } from "../../../functions/project_cli/router.ts";
import { contractProblem, envelopes, inputsFor } from "../../support/project-cli-fuzz.ts";

const IDS = ["b0000000-0000-4000-8000-000000000001", "11111111-1111-4111-8111-111111111111"];
const stats = { calls: 0, valid: 0, codes: {} as Record<string, number> };

function check(call: unknown): void {
  let outcome: ReturnType<typeof validateProjectCli>;
  try {
    outcome = validateProjectCli(call);
  } catch (error) {
    throw new Error(`threw for ${JSON.stringify(call)?.slice(0, 300)}: ${error}`);
  }
  stats.calls++;
  if (outcome.ok) {
    stats.valid++;
    return;
  }
  stats.codes[outcome.error.code] = (stats.codes[outcome.error.code] ?? 0) + 1;
  const problem = contractProblem(outcome as CliResult);
  if (problem) throw new Error(`${problem}: ${JSON.stringify({ call, outcome }).slice(0, 600)}`);
}

const METHODS = Object.entries(MODULES).flatMap(([module, spec]) =>
  Object.entries(spec.methods).map(([method, definition]) => ({ module, method, definition })),
);
const PER_METHOD = 11_000;
const ENVELOPES = 20_000;

test(`envelopes of any shape: ${ENVELOPES} calls`, { timeout: 120_000 }, () => {
  fc.assert(
    fc.property(envelopes(), (call) => check(call)),
    { numRuns: ENVELOPES },
  );
});

for (const { module, method, definition } of METHODS) {
  test(`${module}.${method}: ${PER_METHOD} inputs around its schema`, { timeout: 120_000 }, () => {
    const input = inputsFor(definition.example as object, definition.input, IDS);
    fc.assert(
      fc.property(input, (generated) => check({ module, method, input: generated })),
      { numRuns: PER_METHOD },
    );
  });
}

test("summary: at least 100,000 calls, some valid", () => {
  console.log(`project_cli validation fuzz: ${stats.calls} calls, ${stats.valid} valid, refusals by code ${JSON.stringify(stats.codes)}`);
  expect(stats.calls).toBeGreaterThanOrEqual(100_000);
  expect(stats.valid).toBeGreaterThan(0);
});
