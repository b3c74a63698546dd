// The coding agent's loop with the AI SDK's mock model: it stops once a tool is active, at the
// step cap, or at the cost cap; it logs every step (file contents by size only); and a model
// error ends the run as failed. The workspace is an in-memory one with the real path rules.
import type { LanguageModelV4CallOptions, LanguageModelV4GenerateResult } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { expect, test } from "vitest";
import type { RegisterCandidateInput, Registration } from "../../../functions/tool-agent/coding/candidate-registration.ts";
import { type CodingLimits, logged, runCodingAgent } from "../../../functions/tool-agent/coding/coding-agent.ts";
import { pathProblem, type Workspace, WorkspaceError } from "../../../functions/tool-agent/coding/workspace.ts";

function memoryWorkspace(): Workspace & { files: Map<string, string> } {
  const files = new Map<string, string>();
  const check = (path: string) => {
    const problem = pathProblem(path);
    if (problem) throw new WorkspaceError(problem);
  };
  return {
    files,
    async write(path, content) {
      check(path);
      files.set(path, content);
      return { size: content.length };
    },
    async read(path) {
      check(path);
      return files.get(path) ?? null;
    },
    async list() {
      return [...files.keys()];
    },
  };
}

type Move = { call: string; input: unknown } | { text: string } | { fail: Error };

function model(moves: Move[], tokens = { input: 1_000, output: 100 }) {
  const seen: LanguageModelV4CallOptions[] = [];
  const mock = new MockLanguageModelV4({
    doGenerate: async (options): Promise<LanguageModelV4GenerateResult> => {
      seen.push(options);
      const move = moves[seen.length - 1] ?? { text: "out of script" };
      if ("fail" in move) throw move.fail;
      return {
        content:
          "call" in move
            ? [{ type: "tool-call", toolCallId: `c${seen.length}`, toolName: move.call, input: JSON.stringify(move.input) }]
            : [{ type: "text", text: move.text }],
        finishReason: "call" in move ? { unified: "tool-calls", raw: "tool_calls" } : { unified: "stop", raw: "stop" },
        usage: {
          inputTokens: { total: tokens.input, noCache: tokens.input, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: tokens.output, text: tokens.output, reasoning: 0 },
        },
        warnings: [],
      };
    },
  });
  return { mock, seen };
}

const limits: CodingLimits = { maxSteps: 6, maxCostUsd: 10, usdPerMTokInput: 1, usdPerMTokOutput: 2, callTimeoutMs: 5_000 };

function harness(
  moves: Move[],
  options: { limits?: Partial<CodingLimits>; register?: (input: RegisterCandidateInput) => Registration } = {},
) {
  const { mock, seen } = model(moves);
  const workspace = memoryWorkspace();
  const entries: { kind: string; detail: Record<string, unknown> }[] = [];
  const register =
    options.register ?? ((input) => ({ status: "active", tool_id: input.tool_id, backend_runtime: "local", version: 1, message: "ok" }));
  let clock = 0;
  const run = () =>
    runCodingAgent(
      { taskId: "create_000000000000", kind: "build_tool", description: "double a number" },
      {
        model: mock,
        limits: { ...limits, ...options.limits },
        tools: { workspace, sandbox: {} as never, register: async (input) => register(input) },
        log: async (kind, detail) => {
          entries.push({ kind, detail });
        },
        now: () => (clock += 100),
      },
    );
  return { run, seen, workspace, entries };
}

const register = { tool_id: "doubler", name: "Doubler", description: "doubles", input_schema: { type: "object" } };

test("stops as soon as a tool is registered active; logs each step, then DONE and COST", async () => {
  const h = harness([
    { call: "write_file", input: { path: "tool.js", content: "x".repeat(5_000) } },
    { call: "register_tool", input: register },
    { text: "never asked for" },
  ]);
  const outcome = await h.run();
  expect(outcome).toMatchObject({
    outcome: "completed",
    tool_id: "doubler",
    version: 1,
    steps: 2,
    input_tokens: 2_000,
    output_tokens: 200,
  });
  expect(outcome.cost_usd).toBeCloseTo((2_000 * 1 + 200 * 2) / 1e6, 9);
  expect(h.seen.length).toBe(2);
  expect(h.workspace.files.get("tool.js")?.length).toBe(5_000);
  expect(h.entries.map((e) => e.kind)).toEqual(["TOOL_USE", "TOOL_RESULT", "TOOL_USE", "TOOL_RESULT", "DONE", "COST"]);
  expect(h.entries[0]!.detail).toEqual({ step: 1, tool: "write_file", input: { path: "tool.js", content_chars: 5_000 } });
  expect(h.entries.at(-2)!.detail).toMatchObject({ outcome: "completed", steps: 2, duration_ms: 100 });
});

test("the step cap ends a model that never finishes, as failed with the reason", async () => {
  const h = harness(
    Array.from({ length: 20 }, () => ({ call: "list_files", input: {} })),
    { limits: { maxSteps: 3 } },
  );
  const outcome = await h.run();
  expect(outcome).toMatchObject({ outcome: "failed", steps: 3 });
  expect(outcome.message).toBe("stopped after 3 steps (the cap) without an active tool.");
  expect(h.seen.length).toBe(3);
});

test("the cost cap ends the run once the tokens spent reach it", async () => {
  // Each step costs (1000 * 1 + 100 * 2) / 1e6 = $0.0012; a cap of $0.003 allows three.
  const h = harness(
    Array.from({ length: 20 }, () => ({ call: "list_files", input: {} })),
    { limits: { maxCostUsd: 0.003 } },
  );
  const outcome = await h.run();
  expect(outcome.steps).toBe(3);
  expect(outcome.message).toMatch(/^stopped at the cost cap \(\$0.003\)/);
});

test("a refused path and a staging registration are answers the model reads; the run still ends failed", async () => {
  const h = harness(
    [
      { call: "write_file", input: { path: "../../etc/passwd", content: "x" } },
      { call: "register_tool", input: register },
      { text: "done?" },
    ],
    {
      register: (input) => ({
        status: "staging",
        tool_id: input.tool_id,
        backend_runtime: "local",
        version: 1,
        message: "1 of 2 tests failed",
      }),
    },
  );
  const outcome = await h.run();
  const results = h.entries.filter((e) => e.kind === "TOOL_RESULT").map((e) => e.detail.output);
  expect(results[0]).toMatchObject({ status: "error", message: expect.stringMatching(/^a workspace path is/) });
  expect(outcome).toMatchObject({ outcome: "failed", tool_id: "doubler" });
  expect(outcome.message).toBe(
    "the model finished without registering an active tool. The last registration: staging: 1 of 2 tests failed",
  );
});

test("a model error ends the run as failed, logged, with no tool", async () => {
  const h = harness([{ fail: new Error("provider down") }]);
  const outcome = await h.run();
  expect(outcome).toMatchObject({ outcome: "failed", steps: 0 });
  expect(outcome.message).toMatch(/^the coding model failed/);
  expect(h.entries.map((e) => e.kind)).toEqual(["ERROR", "DONE", "COST"]);
});

test("logged: short values whole, long ones compacted level by level", () => {
  expect(logged({ status: "ok" })).toEqual({ status: "ok" });
  const big = {
    status: "failed",
    cases: Array.from({ length: 30 }, (_, i) => ({ name: `case ${i}`, ok: false, output: "y".repeat(1_000) })),
  };
  const kept = logged(big) as { status: string; cases: { name: string; output: string }[] };
  expect(kept.status).toBe("failed");
  expect(kept.cases).toHaveLength(10);
  expect(kept.cases[0]!.name).toBe("case 0");
  expect(kept.cases[0]!.output.length).toBeLessThan(300);
});
