// Calls above TOOL_AGENT_REQUIRE_APPROVAL_ABOVE_USD wait for an admin. Approving runs the held
// call once, with the params it was held with; refusing closes it. Each approval moves out of
// `pending` exactly once (a conditional update), so two admins approving at once run it once.
import { storedObject } from "../../lib/stored-json.ts";
import { callerName } from "../app-env.ts";
import { StoreError } from "../registry/tool-store.ts";
import type { CallContext } from "./call-context.ts";
import { runCall } from "./run-call.ts";
import { callFailed, type SelectAnswer } from "./select-answer.ts";
import { callableTool } from "./select-tool.ts";

/** Closes a pending approval; answers it, or null when it is unknown or already decided. */
async function closePending(ctx: CallContext, approvalId: string, status: "executed" | "refused") {
  const { data, error } = await ctx.db
    .from("approvals")
    .update({ status, decided_at: new Date().toISOString(), decided_by: callerName(ctx.caller) })
    .eq("approval_id", approvalId)
    .eq("status", "pending")
    .select("approval_id, tool_id, params")
    .maybeSingle();
  if (error) throw new StoreError("UPSTREAM_UNAVAILABLE", "deciding the approval failed: the data plane did not answer");
  return data;
}

const noPending = (approvalId: string) =>
  callFailed("NOT_FOUND", `no pending approval ${approvalId} (unknown, or already decided)`, { approval_id: approvalId });

export async function approveCall(ctx: CallContext, approvalId: string): Promise<SelectAnswer> {
  const held = await closePending(ctx, approvalId, "executed");
  if (!held) return noPending(approvalId);
  const found = await callableTool(ctx, held.tool_id);
  if ("httpStatus" in found) return found;
  return runCall(ctx, found, storedObject(held.params), approvalId);
}

export async function refuseCall(ctx: CallContext, approvalId: string): Promise<SelectAnswer | { refused: true; approval_id: string }> {
  return (await closePending(ctx, approvalId, "refused")) ? { refused: true, approval_id: approvalId } : noPending(approvalId);
}
