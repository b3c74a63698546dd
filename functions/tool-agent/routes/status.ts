// GET /tools/status, GET /tools/{tool_id}, POST /tools/{tool_id}/start and /stop.
import { type Context, Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { z } from "zod";
import { jsonContent, validated } from "../../lib/openapi.ts";
import type { ToolAgentEnv } from "../app-env.ts";
import { requireScope } from "../auth/caller.ts";
import type { CallContext } from "../calls/call-context.ts";
import { toolDatabase } from "../database.ts";
import { toolAgentError } from "../errors.ts";
import { type LifecycleAnswer, startTool, stopTool } from "../lifecycle/start-stop.ts";
import { API_KEY, AUTH_ERRORS, toolAgentErrors } from "../openapi.ts";
import { getTool, listTools } from "../registry/tool-store.ts";
import { searchEntry, statusEntry } from "../registry/tool-view.ts";
import type { StoredTool } from "../tool-types.ts";
import { contextOf } from "./request-context.ts";

export const ToolIdParam = z.object({ tool_id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, { error: "is not a tool id" }) });
const Entry = z.record(z.string(), z.unknown());
const NOT_FOUND = toolAgentErrors({ 404: "NOT_FOUND: no such tool" });

const notFound = (c: Context<ToolAgentEnv>, toolId: string) =>
  c.json(toolAgentError("NOT_FOUND", `no tool "${toolId}"; POST /search_tools lists the tools there are`, { tool_id: toolId }), 404);

/** Runs a start or stop on the tool the path names. */
async function act(c: Context<ToolAgentEnv>, action: (ctx: CallContext, stored: StoredTool) => Promise<LifecycleAnswer>) {
  const toolId = c.req.param("tool_id") ?? "";
  const ctx = await contextOf(c);
  const stored = await getTool(ctx.db, toolId);
  if (!stored) return notFound(c, toolId);
  return c.json(await action(ctx, stored), 200);
}

const lifecycle = (action: "start" | "stop") =>
  describeRoute({
    summary: action === "start" ? "Start a tool" : "Stop a tool",
    security: API_KEY,
    responses: {
      200: {
        description: "the tool's state after the action",
        content: jsonContent(z.object({ tool_id: z.string(), state: z.string(), port: z.null() })),
      },
      ...NOT_FOUND,
      ...AUTH_ERRORS,
    },
  });

export const statusRoutes = new Hono<ToolAgentEnv>()
  .get(
    "/tools/status",
    describeRoute({
      summary: "Every tool's runtime state",
      security: API_KEY,
      responses: { 200: { description: "ToolRoute per tool", content: jsonContent(z.object({ tools: z.array(Entry) })) }, ...AUTH_ERRORS },
    }),
    requireScope("search"),
    async (c) => {
      const tools = await listTools(await toolDatabase(c.var.settings));
      return c.json({ tools: tools.map(statusEntry) }, 200);
    },
  )
  .get(
    "/tools/:tool_id",
    describeRoute({
      summary: "One tool: its entry and its state",
      security: API_KEY,
      responses: { 200: { description: "the tool", content: jsonContent(Entry) }, ...NOT_FOUND, ...AUTH_ERRORS },
    }),
    requireScope("search"),
    validated("param", ToolIdParam),
    async (c) => {
      const { tool_id } = c.req.valid("param");
      const stored = await getTool(await toolDatabase(c.var.settings), tool_id);
      if (!stored) return notFound(c, tool_id);
      return c.json({ ...searchEntry(stored), runtime: statusEntry(stored) }, 200);
    },
  )
  .post("/tools/:tool_id/start", lifecycle("start"), requireScope("invoke"), validated("param", ToolIdParam), (c) => act(c, startTool))
  .post("/tools/:tool_id/stop", lifecycle("stop"), requireScope("invoke"), validated("param", ToolIdParam), (c) => act(c, stopTool));
