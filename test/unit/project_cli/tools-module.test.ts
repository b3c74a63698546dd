// The tools module against a registry that answers as the Tool Agent does (its JSON shapes and
// codes): what it sends, how answers are narrowed to the module's results, and how each of the
// registry's failures becomes an error the model can act on. The real binding and Tool Agent
// are exercised end to end in test/e2e/tool-agent/chat-tools.test.ts.
import { expect, test } from "vitest";
import type { CliContext, ToolRegistry } from "../../../functions/project_cli/context.ts";
import { runProjectCli } from "../../../functions/project_cli/router.ts";

type Answer = { status: number; body: unknown } | Error;

function registry(answers: Answer[]) {
  const sent: { path: string; body: unknown }[] = [];
  const tools: ToolRegistry = {
    async request(path, body) {
      sent.push({ path, body });
      const answer = answers.shift() ?? { status: 500, body: null };
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
  return { sent, ctx: { db: {} as CliContext["db"], userId: "u", tools } satisfies CliContext };
}

const unitConvert = {
  tool_id: "unit_convert",
  name: "Unit converter",
  category: "convert",
  description: "Converts units.",
  params: [
    { name: "value", type: "number", required: true, description: "how much" },
    { name: "to", type: ["string"], description: null },
  ],
  input_schema: { type: "object", required: ["value"] },
  output_schema: { type: "object" },
  cost_per_call_usd: 0,
  host_dir: "tools/unit_convert/v1-abc",
  remote_api_key: "sk-***",
  state: "running",
};

test("search sends the query, and answers only what the assistant needs of each tool", async () => {
  const { sent, ctx } = registry([{ status: 200, body: { tools: [unitConvert, { junk: true }], total: 2 } }]);
  const result = await runProjectCli({ module: "tools", method: "search", input: { query: "km to miles", limit: 3 } }, ctx);
  expect(sent).toEqual([{ path: "/search_tools", body: { keyword: "km to miles", limit: 3 } }]);
  expect(result).toEqual({
    ok: true,
    module: "tools",
    method: "search",
    data: {
      count: 1,
      tools: [
        {
          tool_id: "unit_convert",
          name: "Unit converter",
          category: "convert",
          description: "Converts units.",
          params: [
            { name: "value", type: "number", required: true, description: "how much" },
            { name: "to", type: "any", required: false, description: "" },
          ],
        },
      ],
    },
  });
});

test("describe answers the schemas and the cost; call answers the tool's result", async () => {
  const { sent, ctx } = registry([
    { status: 200, body: { ...unitConvert, runtime: {} } },
    { status: 200, body: { status: "success", result: { value: 6.2 }, error: null } },
  ]);
  const described = await runProjectCli({ module: "tools", method: "describe", input: { tool_id: "unit_convert" } }, ctx);
  expect(described).toMatchObject({ ok: true, data: { tool: { input_schema: { required: ["value"] }, cost_per_call_usd: 0 } } });
  expect(JSON.stringify(described)).not.toContain("host_dir");
  const called = await runProjectCli({ module: "tools", method: "call", input: { tool_id: "unit_convert", params: { value: 10 } } }, ctx);
  expect(called).toEqual({ ok: true, module: "tools", method: "call", data: { tool_id: "unit_convert", result: { value: 6.2 } } });
  expect(sent.map((s) => s.path)).toEqual(["/tools/unit_convert", "/select_tool"]);
});

test("the registry's failures become project_cli errors a model can act on", async () => {
  const selectError = (status: number, code: string, extra: object = {}) => ({
    status,
    body: { status: "error", result: null, error: { code, message: `${code} happened`, ...extra } },
  });
  const { ctx } = registry([
    selectError(400, "INVALID_PARAMS", { missing_fields: ["to"], invalid_fields: [{ field: "value", problem: "must be a number" }] }),
    selectError(404, "NOT_FOUND"),
    selectError(409, "TOOL_INACTIVE"),
    selectError(402, "BUDGET_EXCEEDED"),
    selectError(503, "TOOL_UNAVAILABLE"),
    selectError(502, "TOOL_FAILED"),
    { status: 202, body: { status: "approval_required", approval_id: "a1" } },
    { status: 502, body: "<html>bad gateway</html>" },
    new Error("deadline"),
  ]);
  const call = () => runProjectCli({ module: "tools", method: "call", input: { tool_id: "unit_convert", params: {} } }, ctx);
  const codes: unknown[] = [];
  for (let i = 0; i < 9; i++) {
    const result = await call();
    if (result.ok) throw new Error("expected a failure");
    codes.push(result.error.code);
    if (i === 0) {
      expect(result.error.details).toMatchObject({
        registry_code: "INVALID_PARAMS",
        missing_fields: ["params.to"],
        invalid_fields: [{ field: "params.value", problem: "must be a number" }],
        suggestion: expect.stringContaining("tools.describe"),
      });
    }
    if (i === 6) expect(result.error.details).toMatchObject({ approval_id: "a1" });
  }
  expect(codes).toEqual([
    "INVALID_ACTION_INPUT",
    "NOT_FOUND",
    "CONFLICT",
    "FORBIDDEN",
    "UPSTREAM_UNAVAILABLE",
    "INTERNAL",
    "CONFLICT",
    "UPSTREAM_UNAVAILABLE",
    "UPSTREAM_UNAVAILABLE",
  ]);
});

test("without a registry connected, the module says so; params are checked before anything is sent", async () => {
  const result = await runProjectCli(
    { module: "tools", method: "search", input: { query: "x" } },
    { db: {} as CliContext["db"], userId: "u" },
  );
  expect(result).toMatchObject({
    ok: false,
    error: { code: "UPSTREAM_UNAVAILABLE", message: "no tool registry is connected to this assistant" },
  });
  const { sent, ctx } = registry([]);
  const bad = await runProjectCli({ module: "tools", method: "call", input: { tool_id: "../admin", params: { "a\u0000": 1 } } }, ctx);
  expect(bad).toMatchObject({ ok: false, error: { code: "INVALID_ACTION_INPUT" } });
  expect(sent).toEqual([]);
});
