// What an admin sends to register a tool: ToolMeta plus its ordered sources (ToolSource).
// A local source carries its JavaScript module; a remote one its API key in clear, which is
// encrypted before it is stored and never shown again.
import { z } from "zod";

const endpoint = {
  endpoint_path: z
    .string()
    .regex(/^\/[\x21-\x7e]*$/, { error: 'must start with "/" and hold no spaces' })
    .max(300)
    .default("/"),
  http_method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]).default("POST"),
  timeout_ms: z.number().int().min(100).max(300_000).optional(),
};

export const LocalSourceRequest = z.strictObject({
  type: z.literal("local"),
  /** The tool's ES module: `export default { async fetch(request) { ... } }`. */
  module: z.string().min(1).max(1_000_000, { error: "must be at most 1 MB" }),
  /** Network access from the sandbox; off unless the tool needs it. */
  allow_network: z.boolean().default(false),
  ...endpoint,
});

export const RemoteSourceRequest = z.strictObject({
  type: z.literal("remote"),
  remote_url: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).max(500),
  remote_path: z.string().regex(/^\//, { error: 'must start with "/"' }).max(300).optional(),
  remote_api_key: z.string().min(1).max(4_000).optional(),
  ...endpoint,
});

export const DockerSourceRequest = z.strictObject({
  type: z.literal("docker"),
  image: z.string().min(1).max(300),
  internal_port: z.number().int().min(1).max(65_535),
  container_id: z.string().max(200).optional(),
  ...endpoint,
});

export const SourceRequest = z.discriminatedUnion("type", [LocalSourceRequest, RemoteSourceRequest, DockerSourceRequest]);
export type SourceRequest = z.infer<typeof SourceRequest>;

const jsonSchemaObject = z.record(z.string(), z.unknown()).refine((schema) => schema.type === undefined || schema.type === "object", {
  error: 'must be a JSON Schema of an object ("type": "object")',
});

export const RegisterToolRequest = z.strictObject({
  tool_id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, { error: "must be 1..64 of a-z, 0-9, _ and -, starting with a letter or digit" }),
  name: z.string().trim().min(1).max(200),
  category: z.string().trim().min(1).max(64).default("general"),
  description: z.string().max(4_000).default(""),
  input_schema: jsonSchemaObject.default({ type: "object" }),
  output_schema: z.record(z.string(), z.unknown()).default({}),
  stream_support: z.boolean().default(false),
  status: z.enum(["active", "inactive", "staging", "building"]).default("active"),
  /** What one call costs, for the budget. */
  cost_per_call_usd: z.number().min(0).max(1_000_000).default(0),
  sources: z.array(SourceRequest).min(1, { error: "a tool needs at least one source" }).max(16),
});
export type RegisterToolRequest = z.infer<typeof RegisterToolRequest>;
