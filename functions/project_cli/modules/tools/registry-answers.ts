// The Tool Agent's answers as the tools module reads them: a success parsed into the module's
// result shape, a failure turned into the project_cli error a model can act on. Pure.
import { z } from "zod";
import { type CliErrorCode, CliProblem } from "../../result.ts";
import { ToolSummary } from "./results.ts";

const Failure = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    missing_fields: z.array(z.string()).optional(),
    invalid_fields: z.array(z.object({ field: z.string(), problem: z.string() })).optional(),
    unknown_fields: z.array(z.string()).optional(),
  }),
});

/** The registry's codes, as project_cli codes. */
const CODES: Record<string, CliErrorCode> = {
  NOT_FOUND: "NOT_FOUND",
  INVALID_PARAMS: "INVALID_ACTION_INPUT",
  INVALID_REQUEST: "INVALID_ACTION_INPUT",
  TOOL_INACTIVE: "CONFLICT",
  FORBIDDEN: "FORBIDDEN",
  BUDGET_EXCEEDED: "FORBIDDEN",
  UNAUTHENTICATED: "UNAUTHENTICATED",
  UPSTREAM_UNAVAILABLE: "UPSTREAM_UNAVAILABLE",
  TOOL_UNAVAILABLE: "UPSTREAM_UNAVAILABLE",
  RATE_LIMITED: "UPSTREAM_UNAVAILABLE",
};

const prefixed = (fields: readonly string[] | undefined) => fields?.map((field) => `params.${field}`);

/** A failed answer as a CliProblem; the tool's own message is kept, cut short. */
export function registryProblem(body: unknown, status: number): CliProblem {
  const parsed = Failure.safeParse(body);
  if (!parsed.success) return new CliProblem("UPSTREAM_UNAVAILABLE", `the tool registry answered HTTP ${status} without an error body`);
  const { code, message, missing_fields, invalid_fields, unknown_fields } = parsed.data.error;
  const cliCode = CODES[code] ?? "INTERNAL";
  return new CliProblem(cliCode, `${code}: ${message}`.slice(0, 500), {
    registry_code: code,
    ...(missing_fields ? { missing_fields: prefixed(missing_fields) } : {}),
    ...(invalid_fields ? { invalid_fields: invalid_fields.map((f) => ({ ...f, field: `params.${f.field}` })) } : {}),
    ...(unknown_fields ? { unknown_fields: prefixed(unknown_fields) } : {}),
    ...(cliCode === "INVALID_ACTION_INPUT"
      ? { suggestion: "call tools.describe for the tool's input_schema, then send params that match it" }
      : {}),
  });
}

const SearchEntry = ToolSummary.extend({
  params: z.array(z.object({ name: z.string(), type: z.unknown(), required: z.boolean().optional(), description: z.unknown() })),
});

/** One registry entry as a ToolSummary: types and descriptions as text, other fields left out. */
export function toolSummary(entry: unknown): z.infer<typeof ToolSummary> | undefined {
  const parsed = SearchEntry.safeParse(entry);
  if (!parsed.success) return undefined;
  const { tool_id, name, category, description, params } = parsed.data;
  return {
    tool_id,
    name,
    category,
    description: description.slice(0, 500),
    params: params.map((param) => ({
      name: param.name,
      type: typeof param.type === "string" ? param.type : "any",
      required: param.required === true,
      description: typeof param.description === "string" ? param.description.slice(0, 200) : "",
    })),
  };
}
