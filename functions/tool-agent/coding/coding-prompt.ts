// What the coding agent is told: the platform's rules for a tool, and the task. Pure.
import type { CodingTask } from "./coding-agent.ts";

export const CODING_SYSTEM = [
  "You build tools for a tool registry. A tool is one JavaScript ES module, run in a sandbox with no network, no packages and no file system:",
  "`export default { async fetch(request) { const input = await request.json(); ...; return Response.json(output); } }`.",
  'Work in the workspace: write the module (tool.js) and its tests (tests.json: a list of {"name", "input": {...}, "expect": {...}}),',
  "run_tests until every test passes, then register_tool with a lower-case tool_id, a name, a description, and input and output JSON Schemas.",
  "A tool is active only when register_tool says so. Keep tools small and deterministic. Do not invent capabilities the sandbox lacks.",
].join(" ");

export function codingPrompt(task: CodingTask): string {
  switch (task.kind) {
    case "build_tool":
      return JSON.stringify({
        task: "build_tool",
        description: task.description,
        ...(task.toolName ? { tool_id: task.toolName } : {}),
        ...(task.details ? { details: task.details } : {}),
      });
    case "github_deploy":
      return JSON.stringify({
        task: "github_deploy",
        description: task.description,
        instructions:
          "The repository's files are in the workspace (list_files). Read its tool.json (the registration) and its module and tests, make the tests pass, and register it.",
        ...(task.toolName ? { tool_id: task.toolName } : {}),
      });
    case "repair_tool":
      return JSON.stringify({
        task: "repair_tool",
        tool_id: task.toolId,
        error: task.error,
        description: task.description,
        instructions:
          "The tool's registration is in tool.json; its module (tool.js) and tests (tests.json) are in the workspace when they could be recovered. Fix or rewrite the module, run the tests, and register it under the same tool_id.",
      });
  }
}
