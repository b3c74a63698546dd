// POST /select_tool: run a tool, starting it if needed. `{status, result, error}`.
import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { z } from "zod";
import { jsonContent, validated } from "../../lib/openapi.ts";
import type { ToolAgentEnv } from "../app-env.ts";
import { requireScope } from "../auth/caller.ts";
import { answerOrStoreFailure } from "../calls/select-answer.ts";
import { selectTool, selectToolStreaming } from "../calls/select-tool.ts";
import { API_KEY, AUTH_ERRORS, toolAgentErrors } from "../openapi.ts";
import { contextOf } from "./request-context.ts";

export const SelectRequest = z.strictObject({
  tool_id: z.string().min(1).max(64),
  params: z.record(z.string(), z.unknown()).default({}),
  stream: z
    .boolean()
    .default(false)
    .describe("for a tool with stream_support: answer with the tool's own body as it streams (its content type), not the JSON envelope"),
});

const SelectAnswer = z.object({ status: z.enum(["success", "approval_required", "error"]), result: z.unknown(), error: z.unknown() });

export const selectRoutes = new Hono<ToolAgentEnv>().post(
  "/select_tool",
  describeRoute({
    summary: "Run a tool",
    description:
      "Checks params against the tool's input_schema, the budget and the approval threshold, runs it on its active source (falling back to the next ones), and checks the result against output_schema. Needs the invoke scope.",
    security: API_KEY,
    responses: {
      200: {
        description:
          "success: `result` is the tool's answer; with `stream: true` and a tool with stream_support, the tool's body itself, streamed",
        content: jsonContent(SelectAnswer),
      },
      202: {
        description: "approval_required: the call costs more than the approval threshold; an admin decides (POST /approvals/{id}/approve)",
        content: jsonContent(SelectAnswer),
      },
      ...toolAgentErrors({
        400: "INVALID_PARAMS: params do not match the input schema; missing_fields, invalid_fields and unknown_fields say what to fix",
        402: "BUDGET_EXCEEDED: over the single-call limit or this month's budget, with the figures",
        404: "NOT_FOUND: no such tool",
        409: "TOOL_INACTIVE: the tool is inactive, staging or building",
        502: "TOOL_FAILED (the tool refused or crashed) or INVALID_RESULT (its result does not match output_schema)",
        503: "TOOL_UNAVAILABLE: no source of the tool could be reached; `attempts` lists each",
      }),
      ...AUTH_ERRORS,
    },
  }),
  requireScope("invoke"),
  validated("json", SelectRequest),
  async (c) => {
    const { tool_id, params, stream } = c.req.valid("json");
    const run = stream ? selectToolStreaming : selectTool;
    const answer = await answerOrStoreFailure(async () => run(await contextOf(c), tool_id, params));
    if ("stream" in answer) {
      // The tool's own body and content type, as it streams; where it ran, in headers.
      const headers = new Headers(answer.stream.headers);
      headers.set("cache-control", "no-store");
      headers.set("x-tool-id", answer.tool_id);
      headers.set("x-tool-source", `${answer.source.position}:${answer.source.type}`);
      return new Response(answer.stream.body, { status: 200, headers });
    }
    return c.json(answer.body, answer.httpStatus);
  },
);
