// What POST /create_tool accepts: a description, and optionally a task book (spec `task_spec`):
// free text with more detail, or the structured task of one of the two kinds a caller may ask
// for. Repairs are not asked for: they start from failing health checks.
import { z } from "zod";

const toolName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, { error: "must be 1..64 of a-z, 0-9, _ and -, starting with a letter or digit" });

export const BuildToolSpec = z.object({
  type: z.literal("build_tool"),
  tool_name: toolName.optional(),
  /** The design's runtimes (uv, docker) have one counterpart here: a sandboxed JavaScript module. */
  runtime: z.string().max(32).optional(),
  description: z.string().max(4_000).optional(),
});

export const GithubDeploySpec = z.object({
  type: z.literal("github_deploy"),
  repo_url: z.url({ protocol: /^https?$/, error: "must be an http(s) URL of a repository or an archive" }).max(500),
  tool_name: toolName.optional(),
  runtime: z.string().max(32).optional(),
  description: z.string().max(4_000).optional(),
});

export const TaskSpec = z.discriminatedUnion("type", [BuildToolSpec, GithubDeploySpec]);
export type TaskSpec = z.infer<typeof TaskSpec>;

export const CreateToolRequest = z.strictObject({
  description: z.string().trim().min(1, { error: "say what the tool should do" }).max(4_000),
  task_spec: z
    .union([z.string().max(4_000), TaskSpec])
    .optional()
    .describe('more detail as text, or a task book: {"type": "build_tool", "tool_name"} or {"type": "github_deploy", "repo_url"}'),
});
export type CreateToolRequest = z.infer<typeof CreateToolRequest>;

/** The stored task book: always structured, with the free text kept as `details`. */
export function taskBook(request: CreateToolRequest): TaskSpec & { details?: string } {
  if (typeof request.task_spec === "object") return request.task_spec;
  return { type: "build_tool", ...(request.task_spec ? { details: request.task_spec } : {}) };
}

export const TASK_PREFIX = { build_tool: "create", github_deploy: "deploy", repair_tool: "repair" } as const;
export type TaskKind = keyof typeof TASK_PREFIX;

export const newTaskId = (kind: TaskKind) => `${TASK_PREFIX[kind]}_${crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`;
