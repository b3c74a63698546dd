// How a stored tool is shown: the search_tools entry (ToolMeta, its parameters as a
// list, the active source's fields flattened, the runtime state) and the /tools/status entry
// (ToolRoute with all sources). Pure. Secrets are never here: a remote source shows its masked key.
import type { SourceRow, StoredTool } from "../tool-types.ts";

export interface ParamView {
  name: string;
  type: string;
  description: string;
  required: boolean;
}

/** The parameters of an input schema, as search answers list them. */
export function paramsOf(inputSchema: unknown): { params: ParamView[]; required_params: string[] } {
  const schema = (inputSchema ?? {}) as { properties?: unknown; required?: unknown };
  const properties = schema.properties && typeof schema.properties === "object" ? (schema.properties as Record<string, unknown>) : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === "string") : [];
  const params = Object.entries(properties).map(([name, property]) => {
    const p = (property ?? {}) as { type?: unknown; description?: unknown };
    const type = Array.isArray(p.type) ? p.type.join("|") : typeof p.type === "string" ? p.type : "any";
    return { name, type, description: typeof p.description === "string" ? p.description : "", required: required.includes(name) };
  });
  return { params, required_params: required.filter((name) => name in properties) };
}

/** A source as answers show it: its kind's fields, the key masked. */
export function sourceView(source: SourceRow) {
  const common = { type: source.type, endpoint_path: source.endpoint_path, http_method: source.http_method };
  switch (source.type) {
    case "local":
      return { ...common, host_dir: source.host_dir, allow_network: source.allow_network, internal_port: 0 };
    case "docker":
      return { ...common, image: source.image, container_id: source.container_id, internal_port: source.internal_port };
    case "remote":
      return { ...common, remote_url: source.remote_url, remote_path: source.remote_path, remote_api_key: source.remote_api_key_masked };
  }
}

const bySourcePosition = (a: SourceRow, b: SourceRow) => a.position - b.position;

/** The source a call tries first: the route's active one, else the first. */
export function activeSource(stored: StoredTool): SourceRow | undefined {
  const sources = [...stored.sources].sort(bySourcePosition);
  return sources.find((s) => s.position === stored.route?.active_source) ?? sources[0];
}

/** One entry of POST /search_tools. */
export function searchEntry(stored: StoredTool, matchScore?: number) {
  const { tool, route } = stored;
  const source = activeSource(stored);
  const { type, ...sourceFields } = source ? sourceView(source) : { type: null };
  return {
    tool_id: tool.tool_id,
    name: tool.name,
    category: tool.category,
    description: tool.description,
    ...paramsOf(tool.input_schema),
    input_schema: tool.input_schema,
    output_schema: tool.output_schema,
    stream_support: tool.stream_support,
    status: tool.status,
    cost_per_call_usd: tool.cost_per_call_usd,
    backend_runtime: type,
    ...sourceFields,
    state: route?.state ?? "stopped",
    // No process or port exists on Workers; kept for the contract's shape.
    port: null,
    pid: null,
    ...(matchScore === undefined ? {} : { match_score: matchScore }),
  };
}

/** One entry of GET /tools/status (ToolRoute). */
export function statusEntry(stored: StoredTool) {
  const { route } = stored;
  return {
    tool_id: stored.tool.tool_id,
    status: stored.tool.status,
    sources: [...stored.sources].sort(bySourcePosition).map(sourceView),
    active_source: route?.active_source ?? 0,
    state: route?.state ?? "stopped",
    pid: null,
    port: null,
    started_at: route?.started_at ?? null,
    last_error: route?.last_error ?? null,
    last_used_at: route?.last_used_at ?? null,
    last_checked_at: route?.last_checked_at ?? null,
    last_healthy_at: route?.last_healthy_at ?? null,
  };
}
