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

export type Decision = "approve" | "refuse";

export async function decideApproval(
  ctx: CallContext,
  approvalId: string,
  decision: Decision,
): Promise<SelectAnswer | { refused: true; approval_id: string }> {
  const { data, error } = await ctx.db
    .from("approvals")
    .update({
      status: decision === "approve" ? "executed" : "refused",
      decided_at: new Date().toISOString(),
      decided_by: callerName(ctx.caller),
    })
    .eq("approval_id", approvalId)
    .eq("status", "pending")
    .select("approval_id, tool_id, params")
    .maybeSingle();
  if (error) throw new StoreError("UPSTREAM_UNAVAILABLE", "deciding the approval failed: the data plane did not answer");
  if (!data) return callFailed("NOT_FOUND", `no pending approval ${approvalId} (unknown, or already decided)`, { approval_id: approvalId });
  if (decision === "refuse") return { refused: true, approval_id: approvalId };
  const found = await callableTool(ctx, data.tool_id);
  if ("httpStatus" in found) return found;
  return runCall(ctx, found, storedObject(data.params), approvalId);
}
