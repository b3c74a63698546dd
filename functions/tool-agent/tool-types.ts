// The stored shapes every part of the Tool Agent passes around: a tool's row, its sources, its
// runtime state (generated from the schema, functions/lib/database.types.ts), and the three
// together.
import type { Database } from "../lib/database.types.ts";

type Tables = Database["tool_agent"]["Tables"];
export type ToolRow = Tables["tools"]["Row"];
export type SourceRow = Tables["tool_sources"]["Row"];
export type RouteRow = Tables["tool_routes"]["Row"];

export interface StoredTool {
  tool: ToolRow;
  sources: SourceRow[];
  route: RouteRow | null;
}
