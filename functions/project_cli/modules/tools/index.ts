// The tools module: the tools registered with the Tool Agent, for the assistant to find and use
// without a second tool definition. It reaches the registry as the user (the agent's service
// binding), so the registry's budget, validation and masking apply. Off unless the deployment's
// allow-list names it (docs/project-cli.md).
import type { z } from "zod";
import type { CliContext, ToolRegistry } from "../../context.ts";
import { type CliModule, defineMethod } from "../../method.ts";
import { CliProblem } from "../../result.ts";
import { registryProblem, toolSummary } from "./registry-answers.ts";
import { ToolsCallResult, ToolsDescribeResult, ToolsSearchResult } from "./results.ts";
import { ToolsCallInput, ToolsDescribeInput, ToolsSearchInput } from "./schemas.ts";

function registryOf(ctx: CliContext): ToolRegistry {
  if (!ctx.tools) throw new CliProblem("UPSTREAM_UNAVAILABLE", "no tool registry is connected to this assistant");
  return ctx.tools;
}

async function ask(ctx: CliContext, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  try {
    return await registryOf(ctx).request(path, body);
  } catch (error) {
    if (error instanceof CliProblem) throw error;
    throw new CliProblem("UPSTREAM_UNAVAILABLE", "the tool registry did not answer in time");
  }
}

const record = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

async function toolsSearch(input: z.output<typeof ToolsSearchInput>, ctx: CliContext) {
  const answer = await ask(ctx, "/search_tools", {
    keyword: input.query,
    ...(input.category ? { category: input.category } : {}),
    limit: input.limit,
  });
  if (answer.status !== 200) throw registryProblem(answer.body, answer.status);
  const entries = Array.isArray(record(answer.body).tools) ? (record(answer.body).tools as unknown[]) : [];
  const tools = entries.flatMap((entry) => toolSummary(entry) ?? []).slice(0, input.limit);
  return { tools, count: tools.length };
}

async function toolsDescribe(input: z.output<typeof ToolsDescribeInput>, ctx: CliContext) {
  const answer = await ask(ctx, `/tools/${input.tool_id}`);
  if (answer.status !== 200) throw registryProblem(answer.body, answer.status);
  const entry = record(answer.body);
  const summary = toolSummary(entry);
  if (!summary) throw new CliProblem("UPSTREAM_UNAVAILABLE", "the tool registry's answer was not a tool");
  return {
    tool: {
      ...summary,
      input_schema: record(entry.input_schema),
      output_schema: record(entry.output_schema),
      cost_per_call_usd: typeof entry.cost_per_call_usd === "number" ? entry.cost_per_call_usd : 0,
    },
  };
}

async function toolsCall(input: z.output<typeof ToolsCallInput>, ctx: CliContext) {
  const answer = await ask(ctx, "/select_tool", { tool_id: input.tool_id, params: input.params });
  const body = record(answer.body);
  if (answer.status === 200 && body.status === "success") return { tool_id: input.tool_id, result: body.result ?? null };
  if (body.status === "approval_required") {
    throw new CliProblem("CONFLICT", "this call costs more than the approval threshold and waits for an admin's approval", {
      approval_id: body.approval_id,
    });
  }
  throw registryProblem("error" in body ? { error: body.error } : answer.body, answer.status);
}

export const tools: CliModule = {
  summary: "tools registered with the Tool Agent: find, read and call them",
  methods: {
    search: defineMethod({
      summary: "find registered tools by what they do (any language)",
      input: ToolsSearchInput,
      example: { query: "unit conversion" },
      result: ToolsSearchResult,
      handler: toolsSearch,
    }),
    describe: defineMethod({
      summary: "one tool's parameters (input_schema) and answer (output_schema)",
      input: ToolsDescribeInput,
      example: { tool_id: "unit_convert" },
      result: ToolsDescribeResult,
      handler: toolsDescribe,
    }),
    call: defineMethod({
      summary: "run a registered tool with its params",
      input: ToolsCallInput,
      example: { tool_id: "unit_convert", params: { value: 10, from: "km", to: "mi" } },
      result: ToolsCallResult,
      handler: toolsCall,
    }),
  },
  methodCorrections: { find: "search", list: "search", get: "describe", info: "describe", run: "call", invoke: "call", select: "call" },
};
