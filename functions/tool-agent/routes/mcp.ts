// /mcp: the MCP endpoint (Streamable HTTP, stateless). Listing tools needs the search scope,
// calling one the invoke scope (checked per call, since both arrive as POSTs here).
import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import type { ToolAgentEnv } from "../app-env.ts";
import { requireScope } from "../auth/caller.ts";
import { handleMcp } from "../mcp/mcp-server.ts";
import { API_KEY, AUTH_ERRORS } from "../openapi.ts";
import { contextOf } from "./request-context.ts";

export const mcpRoutes = new Hono<ToolAgentEnv>().on(
  ["GET", "POST", "DELETE"],
  "/mcp",
  describeRoute({
    summary: "MCP server (Streamable HTTP, stateless)",
    description:
      "JSON-RPC over POST: initialize, tools/list (the active tools, with their input schemas), tools/call (through select_tool: validation, budget, approval, masking). No sessions: GET and DELETE answer 405. Needs the search scope; tools/call needs invoke.",
    security: API_KEY,
    responses: { 200: { description: "the JSON-RPC answer" }, ...AUTH_ERRORS },
  }),
  requireScope("search"),
  async (c) => handleMcp(await contextOf(c), c.req.raw),
);
