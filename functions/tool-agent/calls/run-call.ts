// One paid, validated, recorded run of a tool whose params already passed its input schema:
// charge the ledger (paid tools only), run the sources with fallback, record the state, check
// the result against the output schema.
import { z } from "zod";
import { log } from "../../lib/log.ts";
import { storedObject } from "../../lib/stored-json.ts";
import { callerName } from "../app-env.ts";
import { checkAgainstSchema, describeProblems } from "../registry/json-schema.ts";
import { StoreError, updateRoute } from "../registry/tool-store.ts";
import { invokeSources } from "../sources/invoke-sources.ts";
import type { AnswerMode } from "../sources/tool-http.ts";
import type { StoredTool } from "../tool-types.ts";
import type { CallContext } from "./call-context.ts";
import { callFailed, type SelectAnswer, type StreamAnswer } from "./select-answer.ts";
import { routeChange } from "./state-change.ts";

/** What tool_agent.charge_call answers (migration 20261124000800). */
const ChargeAnswer = z.object({
  charged: z.boolean(),
  reason: z.enum(["single_tx_limit", "monthly_limit"]).optional(),
  cost_usd: z.number().optional(),
  limit_usd: z.number().optional(),
  month_spent_usd: z.number().optional(),
});

/** undefined when the call may run; else the refusal, with the figures. */
async function charge(ctx: CallContext, stored: StoredTool, approvalId?: string): Promise<SelectAnswer | undefined> {
  const cost = Number(stored.tool.cost_per_call_usd);
  if (!(cost > 0)) return undefined; // free tools leave no ledger rows
  const { budget } = ctx.settings;
  const { data, error } = await ctx.db.rpc("charge_call", {
    tool: stored.tool.tool_id,
    caller_id: callerName(ctx.caller),
    cost,
    single_tx_limit: budget.singleTxLimitUsd,
    monthly_limit: budget.monthlyLimitUsd,
    approval: approvalId ?? null,
  });
  const parsed = ChargeAnswer.safeParse(data);
  if (error || !parsed.success) throw new StoreError("UPSTREAM_UNAVAILABLE", "charging the call failed: the data plane did not answer");
  const answer = parsed.data;
  if (answer.charged) return undefined;
  const which = answer.reason === "single_tx_limit" ? "the single-call limit" : "this month's budget";
  return callFailed(
    "BUDGET_EXCEEDED",
    `the call costs $${answer.cost_usd} and would exceed ${which} ($${answer.limit_usd}; spent this month $${answer.month_spent_usd})`,
    {
      reason: answer.reason,
      cost_usd: answer.cost_usd,
      limit_usd: answer.limit_usd,
      month_spent_usd: answer.month_spent_usd,
    },
  );
}

/** Records what the call did to the tool's state; a failure to record is logged, not answered. */
async function recordState(
  ctx: CallContext,
  stored: StoredTool,
  outcome: { ok: boolean; position: number; error?: string },
): Promise<void> {
  const change = routeChange(stored.route, outcome, Date.now());
  if (!change) return;
  try {
    await updateRoute(ctx.db, stored.tool.tool_id, change);
  } catch (failure) {
    log.warn("tool_agent.state_not_recorded", { tool_id: stored.tool.tool_id, message: (failure as Error).message });
  }
}

async function run(
  ctx: CallContext,
  stored: StoredTool,
  params: Record<string, unknown>,
  approvalId: string | undefined,
  mode: AnswerMode,
): Promise<SelectAnswer | StreamAnswer> {
  const refused = await charge(ctx, stored, approvalId);
  if (refused) return refused;

  const { outcome, position, attempts } = await invokeSources(stored, params, ctx.sources, mode);
  const source = { position, type: stored.sources.find((s) => s.position === position)?.type ?? "unknown" };
  // A fallback worked, or the tool is broken on every source: the state says so either way.
  await recordState(ctx, stored, { ok: outcome.ok, position, ...(outcome.ok ? {} : { error: outcome.message }) });
  log.info("tool_agent.call", {
    tool_id: stored.tool.tool_id,
    caller: callerName(ctx.caller),
    ok: outcome.ok,
    source: position,
    attempts: attempts.length,
    ...(mode === "stream" ? { stream: true } : {}),
  });
  if (!outcome.ok) return callFailed(outcome.code, outcome.message, { attempts });
  // A stream is passed through as the tool sends it; output_schema describes a whole result,
  // so it is not checked here (docs/tool-agent.md).
  if ("stream" in outcome) return { httpStatus: 200, stream: outcome.stream, tool_id: stored.tool.tool_id, source };

  const outputSchema = storedObject(stored.tool.output_schema);
  if (Object.keys(outputSchema).length > 0) {
    const problems = checkAgainstSchema(outputSchema, outcome.result);
    if (problems) {
      return callFailed("INVALID_RESULT", `the tool's result does not match its output_schema: ${describeProblems(problems)}`, {
        ...problems,
      });
    }
  }
  return { httpStatus: 200, body: { status: "success", result: outcome.result, error: null, tool_id: stored.tool.tool_id, source } };
}

/** One call, answered as JSON. */
export async function runCall(
  ctx: CallContext,
  stored: StoredTool,
  params: Record<string, unknown>,
  approvalId?: string,
): Promise<SelectAnswer> {
  const answer = await run(ctx, stored, params, approvalId, "json");
  if ("stream" in answer) throw new Error("a JSON call was answered with a stream");
  return answer;
}

/** One call whose successful answer is the tool's body, streamed through. */
export function runStreamingCall(
  ctx: CallContext,
  stored: StoredTool,
  params: Record<string, unknown>,
): Promise<SelectAnswer | StreamAnswer> {
  return run(ctx, stored, params, undefined, "stream");
}
