// The tools module's inputs: find registered tools, read one's contract, call one.
import { z } from "zod";
import { storableJsonObject, storableString, text } from "../../fields.ts";

const toolId = storableString().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, {
  error: "expected a tool_id as tools.search lists it, e.g. unit_convert",
});

export const ToolsSearchInput = z.strictObject({
  query: text(200),
  category: text(64).optional(),
  limit: z.int().min(1).max(10).default(5),
});

export const ToolsDescribeInput = z.strictObject({ tool_id: toolId });

export const ToolsCallInput = z.strictObject({
  tool_id: toolId,
  /** The tool's own parameters, as tools.describe shows its input_schema; checked by the registry. */
  params: storableJsonObject(100_000).default({}),
});
