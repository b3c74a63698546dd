// POST /search_tools: tools and their state, best match first; an empty keyword lists
// the active tools (of a category, if one is given).
import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { z } from "zod";
import { jsonContent, validated } from "../../lib/openapi.ts";
import type { ToolAgentEnv } from "../app-env.ts";
import { requireScope } from "../auth/caller.ts";
import { toolDatabase } from "../database.ts";
import { API_KEY, AUTH_ERRORS } from "../openapi.ts";
import { listTools, searchTools } from "../registry/tool-store.ts";
import { searchEntry } from "../registry/tool-view.ts";

export const SearchRequest = z.strictObject({
  keyword: z.string().max(200).default("").describe("words, a tool id or name, any language; typos are forgiven"),
  category: z.string().max(64).optional(),
  include_inactive: z.boolean().default(false).describe("also tools that are inactive, staging or building"),
  limit: z.number().int().min(1).max(100).default(20),
});

const SearchAnswer = z.object({ tools: z.array(z.record(z.string(), z.unknown())), total: z.number() });

export const searchRoutes = new Hono<ToolAgentEnv>().post(
  "/search_tools",
  describeRoute({
    summary: "Find tools",
    description:
      "Exact tool_id or name first, then full-text and trigram matches over id, name, description and parameter names. Needs the search scope.",
    security: API_KEY,
    responses: { 200: { description: "the matching tools", content: jsonContent(SearchAnswer) }, ...AUTH_ERRORS },
  }),
  requireScope("search"),
  validated("json", SearchRequest),
  async (c) => {
    const query = c.req.valid("json");
    const db = await toolDatabase(c.var.settings);
    const tools = query.keyword.trim()
      ? (
          await searchTools(db, {
            keyword: query.keyword,
            category: query.category,
            includeInactive: query.include_inactive,
            limit: query.limit,
          })
        ).map(({ tool, score }) => searchEntry(tool, score))
      : (await listTools(db, { activeOnly: !query.include_inactive, category: query.category, limit: query.limit })).map((tool) =>
          searchEntry(tool),
        );
    return c.json({ tools, total: tools.length }, 200);
  },
);
