// The registry's reads and writes (ToolRegistry and SourceStore), through PostgREST
// as the Tool Agent's own role. Every failure becomes a StoreError with the code the HTTP layer
// answers: the data plane not answering is UPSTREAM_UNAVAILABLE, a lost race is CONFLICT.
import type { Json } from "../../lib/database.types.ts";
import type { ToolDatabase } from "../database.ts";
import type { ToolAgentErrorCode } from "../errors.ts";
import type { RouteRow, SourceRow, StoredTool, ToolRow } from "../tool-types.ts";

export class StoreError extends Error {
  override readonly name = "StoreError";
  readonly code: Extract<ToolAgentErrorCode, "UPSTREAM_UNAVAILABLE" | "CONFLICT" | "INVALID_REQUEST">;
  constructor(code: StoreError["code"], message: string) {
    super(message);
    this.code = code;
  }
}

interface PostgrestFailure {
  code?: string;
  message: string;
}

function fail(what: string, error: PostgrestFailure): never {
  // PT409: a lost registration race (register_tool); 23505: a unique index said no (one open repair per tool).
  if (error.code === "PT409" || error.code === "23505") throw new StoreError("CONFLICT", error.message);
  if (error.code === "23514" || error.code === "22P02" || error.code === "23502") {
    throw new StoreError("INVALID_REQUEST", `the database refused a value: ${error.message}`);
  }
  throw new StoreError("UPSTREAM_UNAVAILABLE", `${what} failed: the data plane did not answer (${error.code ?? "no code"})`);
}

/** supabase-js rejects (rather than answering an error) when fetch itself throws, e.g. a deadline. */
export async function attempt<T extends { error: PostgrestFailure | null }>(what: string, query: PromiseLike<T>): Promise<T> {
  let answer: T;
  try {
    answer = await query;
  } catch (error) {
    throw new StoreError("UPSTREAM_UNAVAILABLE", `${what} failed: ${(error as Error).name}`);
  }
  if (answer.error) fail(what, answer.error);
  return answer;
}

const WITH_SOURCES_AND_ROUTE = "*, tool_sources(*), tool_routes(*)";

type ToolWithRelations = ToolRow & { tool_sources: SourceRow[]; tool_routes: RouteRow | null };

const stored = (row: ToolWithRelations): StoredTool => {
  const { tool_sources, tool_routes, ...tool } = row;
  return { tool, sources: tool_sources ?? [], route: tool_routes ?? null };
};

export async function getTool(db: ToolDatabase, toolId: string): Promise<StoredTool | null> {
  const { data } = await attempt("reading the tool", db.from("tools").select(WITH_SOURCES_AND_ROUTE).eq("tool_id", toolId).maybeSingle());
  return data ? stored(data) : null;
}

export async function getTools(db: ToolDatabase, toolIds: readonly string[]): Promise<StoredTool[]> {
  if (toolIds.length === 0) return [];
  const { data } = await attempt(
    "reading tools",
    db
      .from("tools")
      .select(WITH_SOURCES_AND_ROUTE)
      .in("tool_id", [...toolIds]),
  );
  return (data ?? []).map(stored);
}

export interface ListFilter {
  activeOnly?: boolean;
  category?: string;
  limit?: number;
}

/** list_all, list_active and find_by_category, in tool_id order. */
export async function listTools(db: ToolDatabase, filter: ListFilter = {}): Promise<StoredTool[]> {
  let query = db
    .from("tools")
    .select(WITH_SOURCES_AND_ROUTE)
    .order("tool_id")
    .limit(filter.limit ?? 1000);
  if (filter.activeOnly) query = query.eq("status", "active");
  if (filter.category) query = query.eq("category", filter.category);
  const { data } = await attempt("listing tools", query);
  return (data ?? []).map(stored);
}

/** The tools whose runtime state is one of `states` (what maintenance looks at). */
export async function toolsInState(db: ToolDatabase, states: readonly RouteRow["state"][]): Promise<StoredTool[]> {
  const { data } = await attempt(
    "listing tools by state",
    db
      .from("tools")
      .select("*, tool_sources(*), tool_routes!inner(*)")
      .in("tool_routes.state", [...states])
      .limit(10_000),
  );
  return (data ?? []).map(stored);
}

export interface SearchQuery {
  keyword: string;
  category?: string;
  includeInactive?: boolean;
  limit?: number;
}

/** search: ranked best first (migration 20261124000700 says how). */
export async function searchTools(db: ToolDatabase, query: SearchQuery): Promise<{ tool: StoredTool; score: number }[]> {
  const { data: ranked } = await attempt(
    "searching tools",
    db.rpc("search_tools", {
      keyword: query.keyword,
      category_filter: query.category ?? null,
      include_inactive: query.includeInactive ?? false,
      max_results: query.limit ?? 20,
    }),
  );
  const hits = (ranked ?? []).filter((hit): hit is { tool_id: string; match_score: number } => hit.tool_id !== null);
  const tools = new Map(
    (
      await getTools(
        db,
        hits.map((hit) => hit.tool_id),
      )
    ).map((tool) => [tool.tool.tool_id, tool]),
  );
  return hits.flatMap((hit) => {
    const tool = tools.get(hit.tool_id);
    return tool ? [{ tool, score: Math.round(hit.match_score * 1000) / 1000 }] : [];
  });
}

export async function currentVersion(db: ToolDatabase, toolId: string): Promise<number> {
  const { data } = await attempt("reading the tool's version", db.from("tools").select("version").eq("tool_id", toolId).maybeSingle());
  return data?.version ?? 0;
}

/** Writes the tool, its sources and a fresh route in one transaction; answers the new version. */
export async function saveTool(db: ToolDatabase, tool: Json, sources: Json[], version: number): Promise<number> {
  const { data } = await attempt("registering the tool", db.rpc("register_tool", { tool, sources, expected_version: version }));
  return data ?? version;
}

/** unregister: true when the tool existed. Sources, route and approvals go with it. */
export async function deleteTool(db: ToolDatabase, toolId: string): Promise<boolean> {
  const { data } = await attempt("unregistering the tool", db.from("tools").delete().eq("tool_id", toolId).select("tool_id"));
  return (data ?? []).length > 0;
}

export type RoutePatch = Partial<Omit<RouteRow, "tool_id" | "updated_at">>;

export async function updateRoute(db: ToolDatabase, toolId: string, patch: RoutePatch): Promise<void> {
  await attempt("recording the tool's state", db.from("tool_routes").update(patch).eq("tool_id", toolId));
}
