// The coding agent's tools: the contract of the Tool Agent design's coding agent, adapted to
// Workers (docs/tool-agent.md, "The coding agent"). Files live in the task's workspace in object
// storage; "running" a tool means running its tests in the sandbox local tools run in; there are
// no Docker or uv environments to create, so the tools that manage them have no counterpart.
// A tool's refusal (a bad path, a missing file) is an answer the model reads, not an exception.
import { tool } from "ai";
import { z } from "zod";
import { RegisterCandidateInput, type RegisterCandidateInput as RegisterInput, type Registration } from "./candidate-registration.ts";
import { runCandidate, type SandboxOptions } from "./candidate-runner.ts";
import { parseToolTests } from "./tool-tests.ts";
import { type Workspace, WorkspaceError } from "./workspace.ts";

export interface CodingToolDeps {
  workspace: Workspace;
  sandbox: SandboxOptions;
  register(input: RegisterInput): Promise<Registration>;
}

const refused = (error: unknown) => {
  if (error instanceof WorkspaceError) return { status: "error" as const, message: error.message };
  throw error;
};

export function codingTools({ workspace, sandbox, register }: CodingToolDeps) {
  return {
    write_file: tool({
      description: "Write a file of the workspace (created or replaced).",
      inputSchema: z.object({ path: z.string(), content: z.string() }),
      execute: async ({ path, content }) => {
        try {
          return { status: "ok" as const, path, size: (await workspace.write(path, content)).size };
        } catch (error) {
          return refused(error);
        }
      },
    }),
    read_file: tool({
      description: "Read a file of the workspace.",
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => {
        try {
          const content = await workspace.read(path);
          return content === null
            ? { status: "error" as const, message: `no file ${path}; list_files shows what there is` }
            : { status: "ok" as const, path, content };
        } catch (error) {
          return refused(error);
        }
      },
    }),
    list_files: tool({
      description: "List the workspace's files.",
      inputSchema: z.object({}),
      execute: async () => ({ status: "ok" as const, files: await workspace.list() }),
    }),
    run_tests: tool({
      description:
        "Run the tool's tests in the sandbox: each case POSTs its input as JSON to the module and compares the JSON answer with `expect` (a subset match).",
      inputSchema: z.object({ module_path: z.string().default("tool.js"), tests_path: z.string().default("tests.json") }),
      execute: async ({ module_path, tests_path }) => {
        try {
          const module = await workspace.read(module_path);
          if (module === null) return { status: "error" as const, message: `no file ${module_path}` };
          const testsText = await workspace.read(tests_path);
          if (testsText === null) return { status: "error" as const, message: `no file ${tests_path}` };
          const tests = parseToolTests(testsText);
          if (!tests.ok) return { status: "error" as const, message: tests.problem };
          return await runCandidate(module, tests.cases, sandbox);
        } catch (error) {
          return refused(error);
        }
      },
    }),
    register_tool: tool({
      description:
        "Register the tool. It becomes active only if its schemas are valid and all its tests pass in the sandbox; otherwise a new tool stays `staging` with the reason.",
      inputSchema: RegisterCandidateInput,
      execute: async (input) => {
        try {
          return await register(input);
        } catch (error) {
          return refused(error);
        }
      },
    }),
  };
}

export type CodingTools = ReturnType<typeof codingTools>;
