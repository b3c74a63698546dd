// Calls held for approval: list them, approve (runs the
// call once and answers its result) or refuse. Admin keys only.
import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { z } from "zod";
import { jsonContent, validated } from "../../lib/openapi.ts";
import type { ToolAgentEnv } from "../app-env.ts";
import { requireScope } from "../auth/caller.ts";
import { approveCall, refuseCall } from "../calls/approvals.ts";
import { answerOrStoreFailure } from "../calls/select-answer.ts";
import { toolDatabase } from "../database.ts";
import { API_KEY, AUTH_ERRORS, toolAgentErrors } from "../openapi.ts";
import { StoreError } from "../registry/tool-store.ts";
import { contextOf } from "./request-context.ts";

const ApprovalParam = z.object({ approval_id: z.uuid({ error: "is not an approval id" }) });

const decide = (decision: "approve" | "refuse") =>
  describeRoute({
    summary: decision === "approve" ? "Approve a held call: it runs once, now" : "Refuse a held call",
    security: API_KEY,
    responses: {
      200: {
        description: decision === "approve" ? "the call's answer, as POST /select_tool gives it" : "refused",
        content: jsonContent(z.record(z.string(), z.unknown())),
      },
      ...toolAgentErrors({ 404: "NOT_FOUND: no pending approval with this id" }),
      ...AUTH_ERRORS,
    },
  });

export const approvalRoutes = new Hono<ToolAgentEnv>()
  .get(
    "/approvals",
    describeRoute({
      summary: "Calls waiting for approval",
      security: API_KEY,
      responses: {
        200: {
          description: "pending approvals, oldest first",
          content: jsonContent(z.object({ approvals: z.array(z.record(z.string(), z.unknown())) })),
        },
        ...AUTH_ERRORS,
      },
    }),
    requireScope("admin"),
    async (c) => {
      const db = await toolDatabase(c.var.settings);
      const { data, error } = await db
        .from("approvals")
        .select("approval_id, tool_id, params, cost_usd, caller, requested_at")
        .eq("status", "pending")
        .order("requested_at")
        .limit(100);
      if (error) throw new StoreError("UPSTREAM_UNAVAILABLE", "listing approvals failed");
      return c.json({ approvals: data }, 200);
    },
  )
  .post("/approvals/:approval_id/approve", decide("approve"), requireScope("admin"), validated("param", ApprovalParam), async (c) => {
    const answer = await answerOrStoreFailure(async () => approveCall(await contextOf(c), c.req.valid("param").approval_id));
    return c.json(answer.body, answer.httpStatus);
  })
  .post("/approvals/:approval_id/refuse", decide("refuse"), requireScope("admin"), validated("param", ApprovalParam), async (c) => {
    const answer = await refuseCall(await contextOf(c), c.req.valid("param").approval_id);
    return "httpStatus" in answer ? c.json(answer.body, answer.httpStatus) : c.json(answer, 200);
  });
