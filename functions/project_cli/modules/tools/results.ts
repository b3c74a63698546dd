// What the tools module answers, declared once (see calendar/results.ts for who reads it). The
// registry's answers are parsed into these shapes, not passed through: only what the assistant
// needs, nothing of how a tool is hosted.
import { z } from "zod";

export const ToolParam = z.object({ name: z.string(), type: z.string(), required: z.boolean(), description: z.string() });

export const ToolSummary = z.object({
  tool_id: z.string(),
  name: z.string(),
  category: z.string(),
  description: z.string(),
  params: z.array(ToolParam),
});

export const ToolsSearchResult = z.object({ tools: z.array(ToolSummary), count: z.int().min(0) });

export const ToolsDescribeResult = z.object({
  tool: ToolSummary.extend({
    input_schema: z.record(z.string(), z.unknown()),
    output_schema: z.record(z.string(), z.unknown()),
    cost_per_call_usd: z.number(),
  }),
});

export const ToolsCallResult = z.object({ tool_id: z.string(), result: z.unknown() });
