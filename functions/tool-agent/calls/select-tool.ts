// POST /select_tool: find the tool, refuse what cannot run (unknown, not active, params
// that do not match its input schema), hold a call above the approval threshold for an admin,
// else run it.
import type { Json } from "../../lib/database.types.ts";
import { storedObject } from "../../lib/stored-json.ts";
import { callerName } from "../app-env.ts";
import { checkAgainstSchema, describeProblems } from "../registry/json-schema.ts";
import { getTool } from "../registry/tool-store.ts";
import type { StoredTool } from "../tool-types.ts";
import type { CallContext } from "./call-context.ts";
import { runCall, runStreamingCall } from "./run-call.ts";
import { callFailed, type SelectAnswer, type StreamAnswer } from "./select-answer.ts";

/** The stored tool, or the answer that says why it cannot be called. */
export async function callableTool(ctx: CallContext, toolId: string): Promise<StoredTool | SelectAnswer> {
  const stored = await getTool(ctx.db, toolId);
  if (!stored) return callFailed("NOT_FOUND", `no tool "${toolId}"; POST /search_tools lists the tools there are`, { tool_id: toolId });
  if (stored.tool.status !== "active") {
    return callFailed("TOOL_INACTIVE", `tool "${toolId}" is ${stored.tool.status}, not active`, {
      tool_id: toolId,
      tool_status: stored.tool.status,
    });
  }
  return stored;
}

/** What stands between a call and its run: the tool, its params, the budget, the approval threshold. */
async function admit(ctx: CallContext, toolId: string, params: Record<string, unknown>): Promise<StoredTool | SelectAnswer> {
  const found = await callableTool(ctx, toolId);
  if ("httpStatus" in found) return found;
  const problems = checkAgainstSchema(storedObject(found.tool.input_schema), params);
  if (problems) {
    return callFailed("INVALID_PARAMS", `params do not match ${toolId}'s input_schema: ${describeProblems(problems)}`, {
      tool_id: toolId,
      ...problems,
    });
  }
  const cost = Number(found.tool.cost_per_call_usd);
  const { requireApprovalAboveUsd: threshold, singleTxLimitUsd } = ctx.settings.budget;
  // No approval can lift the single-call limit: refuse before asking anyone.
  if (cost > singleTxLimitUsd) {
    return callFailed("BUDGET_EXCEEDED", `the call costs $${cost}, over the single-call limit of $${singleTxLimitUsd}`, {
      reason: "single_tx_limit",
      cost_usd: cost,
      limit_usd: singleTxLimitUsd,
    });
  }
  if (cost > threshold) {
    const { data, error } = await ctx.db
      .from("approvals")
      .insert({ tool_id: toolId, params: params as Json, cost_usd: cost, caller: callerName(ctx.caller) })
      .select("approval_id")
      .single();
    if (error || !data)
      return callFailed("UPSTREAM_UNAVAILABLE", "the approval request could not be recorded; retry shortly", { retryable: true });
    return {
      httpStatus: 202,
      body: {
        status: "approval_required",
        result: null,
        error: null,
        tool_id: toolId,
        approval: { approval_id: data.approval_id, cost_usd: cost, threshold_usd: threshold },
      },
    };
  }
  return found;
}

export async function selectTool(ctx: CallContext, toolId: string, params: Record<string, unknown>): Promise<SelectAnswer> {
  const admitted = await admit(ctx, toolId, params);
  return "httpStatus" in admitted ? admitted : runCall(ctx, admitted, params);
}

/**
 * select_tool with `stream: true`: a tool with stream_support answers with its body as it
 * streams; any other tool answers as usual.
 */
export async function selectToolStreaming(
  ctx: CallContext,
  toolId: string,
  params: Record<string, unknown>,
): Promise<SelectAnswer | StreamAnswer> {
  const admitted = await admit(ctx, toolId, params);
  if ("httpStatus" in admitted) return admitted;
  return admitted.tool.stream_support ? runStreamingCall(ctx, admitted, params) : runCall(ctx, admitted, params);
}
