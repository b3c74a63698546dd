// The coding agent's register_tool: a candidate becomes a registered tool only after its
// schemas are valid, every test input matches input_schema, and a smoke run of all its tests in
// the sandbox passes with answers matching output_schema. A new tool that fails is registered
// as `staging`, with the reason in its state, so nobody can call it and an admin can see why; a
// repair that fails leaves the existing tool as it was.
import { z } from "zod";
import { type RegistryStorage, registerTool } from "../admin/register-tool.ts";
import { withinDeadline } from "../bounded.ts";
import { checkAgainstSchema, describeProblems } from "../registry/json-schema.ts";
import { RegisterToolRequest } from "../registry/tool-request.ts";
import { getTool, updateRoute } from "../registry/tool-store.ts";
import { runCandidate, type SandboxOptions } from "./candidate-runner.ts";
import { parseToolTests } from "./tool-tests.ts";
import type { Workspace } from "./workspace.ts";

export const RegisterCandidateInput = z.object({
  tool_id: z.string().describe("lower-case id: a-z, 0-9, _ and -"),
  name: z.string(),
  description: z.string(),
  category: z.string().optional(),
  input_schema: z.record(z.string(), z.unknown()).describe('JSON Schema of the input object ("type": "object")'),
  output_schema: z.record(z.string(), z.unknown()).optional().describe("JSON Schema of the answer"),
  runtime_type: z.literal("local").default("local").describe("local: a JavaScript module run in the sandbox (the only runtime here)"),
  module_path: z.string().default("tool.js"),
  tests_path: z.string().default("tests.json"),
});
export type RegisterCandidateInput = z.input<typeof RegisterCandidateInput>;

export interface Registration {
  status: "active" | "staging" | "error";
  tool_id: string;
  backend_runtime: "local";
  version?: number;
  message: string;
}

export interface RegistrationContext {
  /** A repair may only register the tool it repairs; a build may not take a registered tool's id. */
  task: { kind: "build_tool" | "github_deploy" | "repair_tool"; toolId?: string | undefined };
  workspace: Workspace;
  storage: RegistryStorage;
  sandbox: SandboxOptions;
}

/** Where a coding-agent tool's tests are kept, for its repairs (destroy deletes them with its code). */
export const testsKey = (toolId: string) => `tools/${toolId}/tests.json`;

const error = (toolId: string, message: string): Registration => ({ status: "error", tool_id: toolId, backend_runtime: "local", message });

/** Why the candidate is not ready, or undefined when it is. */
async function candidateProblem(request: RegisterToolRequest, testsText: string, sandbox: SandboxOptions): Promise<string | undefined> {
  const tests = parseToolTests(testsText);
  if (!tests.ok) return tests.problem;
  for (const [i, testCase] of tests.cases.entries()) {
    let problems: ReturnType<typeof checkAgainstSchema>;
    try {
      problems = checkAgainstSchema(request.input_schema, testCase.input);
    } catch (failure) {
      return `input_schema is not a usable JSON Schema: ${(failure as Error).message}`;
    }
    if (problems) return `test ${testCase.name ?? i + 1}: its input does not match input_schema: ${describeProblems(problems)}`;
  }
  const source = request.sources[0];
  if (source?.type !== "local") return "a candidate has one local source";
  const outputSchema = Object.keys(request.output_schema).length > 0 ? request.output_schema : undefined;
  const run = await runCandidate(source.module, tests.cases, { ...sandbox, ...(outputSchema ? { outputSchema } : {}) });
  if (run.status === "error") return `the module does not load: ${run.message}`;
  if (run.status === "failed") {
    const failed = run.cases.filter((c) => !c.ok).map((c) => `${c.name}: ${c.problem}`);
    return `${run.failed} of ${run.cases.length} tests failed: ${failed.join("; ")}`.slice(0, 1_500);
  }
  return undefined;
}

export async function registerCandidate(input: RegisterCandidateInput, context: RegistrationContext): Promise<Registration> {
  const candidate = RegisterCandidateInput.parse(input);
  const { task, workspace, storage } = context;
  if (task.kind === "repair_tool" && candidate.tool_id !== task.toolId) {
    return error(candidate.tool_id, `this task repairs ${task.toolId}; register it under that tool_id`);
  }
  const module = await workspace.read(candidate.module_path);
  if (module === null) return error(candidate.tool_id, `no file ${candidate.module_path} in the workspace; write the tool's module first`);
  const testsText = await workspace.read(candidate.tests_path);
  if (testsText === null) return error(candidate.tool_id, `no file ${candidate.tests_path} in the workspace; write the tests first`);

  const parsed = RegisterToolRequest.safeParse({
    tool_id: candidate.tool_id,
    name: candidate.name,
    description: candidate.description,
    ...(candidate.category ? { category: candidate.category } : {}),
    input_schema: candidate.input_schema,
    output_schema: candidate.output_schema ?? {},
    sources: [{ type: "local", module }],
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    return error(candidate.tool_id, `the registration is not valid: ${problems.join("; ")}`);
  }
  const request = parsed.data;
  const existing = await getTool(storage.db, request.tool_id);
  const existingIsLive = existing?.tool.status === "active" || existing?.tool.status === "inactive";
  if (task.kind !== "repair_tool" && existingIsLive) {
    return error(request.tool_id, `${request.tool_id} is already a registered tool; choose another tool_id`);
  }

  const problem = await candidateProblem(request, testsText, context.sandbox);
  if (problem) {
    if (existingIsLive) return error(request.tool_id, problem);
    const { version } = await registerTool(storage, { ...request, status: "staging" });
    await updateRoute(storage.db, request.tool_id, { last_error: `not activated: ${problem}`.slice(0, 2_000) });
    return { status: "staging", tool_id: request.tool_id, backend_runtime: "local", version, message: problem };
  }
  const { version } = await registerTool(storage, { ...request, status: "active" });
  await withinDeadline(storage.code.put(testsKey(request.tool_id), testsText), storage.timeoutMs, "keeping the tool's tests");
  return {
    status: "active",
    tool_id: request.tool_id,
    backend_runtime: "local",
    version,
    message: "registered and active: every test passed",
  };
}
