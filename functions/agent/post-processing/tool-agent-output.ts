// ToolAgentOutput: the one record kept per tool call, whatever the tool. It says what was
// called (name, id, the raw args), how it went (status, error) and which card to show
// (ui_hints). It never holds a skill file's text: the model already read it, and a card or a
// summary has no use for it. Building it never throws, whatever the model sent or the tool
// returned, because post-processing must not be able to break a run.
//
// A model can also name a tool that does not exist (the AI SDK then reports a tool error
// under that name). Such calls are recorded as tool_name "unknown_tool", with the name as
// called in result.requested_tool, so the two real tools keep exact literal discriminators.
import { z } from "zod";
import { CLI_ERROR_CODES, type CliErrorCode, type CliResult, failure } from "../../project_cli/result.ts";
import { UiHints, uiHintsFor } from "./ui-hints.ts";

export const TOOL_NAMES = ["project_cli", "view_skill_file"] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

/** success; failure; partial = success whose data says it was cut short (`truncated: true`). */
export const ToolStatus = z.enum(["success", "failure", "partial"]);
export type ToolStatus = z.infer<typeof ToolStatus>;

const CliErrorCodeSchema = z.enum(Object.keys(CLI_ERROR_CODES) as [CliErrorCode, ...CliErrorCode[]]);

export const CliErrorSchema = z.object({
  code: CliErrorCodeSchema,
  message: z.string(),
  retryable: z.boolean(),
  details: z.record(z.string(), z.unknown()),
});

export const SkillFileErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  available_files: z.array(z.string()).optional(),
});

const common = {
  tool_call_id: z.string(),
  /** Exactly what the model sent, malformed or not. */
  tool_call_args: z.unknown(),
  status: ToolStatus,
  ui_hints: UiHints.nullable(),
};

export const ProjectCliAgentOutput = z.object({
  tool_name: z.literal("project_cli"),
  ...common,
  /** `data` only on success. module/method are null when the call had no usable names. */
  result: z.object({ module: z.string().nullable(), method: z.string().nullable(), data: z.unknown().optional() }),
  error: CliErrorSchema.nullable(),
});

export const ViewSkillFileAgentOutput = z.object({
  tool_name: z.literal("view_skill_file"),
  ...common,
  /** The path only, never the content. */
  result: z.object({ path: z.string().nullable() }),
  error: SkillFileErrorSchema.nullable(),
});

export const UnknownToolAgentOutput = z.object({
  tool_name: z.literal("unknown_tool"),
  ...common,
  status: z.literal("failure"),
  result: z.object({ requested_tool: z.string() }),
  error: z.object({ code: z.literal("UNKNOWN_TOOL"), message: z.string() }),
  ui_hints: z.null(),
});

export const ToolAgentOutput = z.discriminatedUnion("tool_name", [ProjectCliAgentOutput, ViewSkillFileAgentOutput, UnknownToolAgentOutput]);
export type ToolAgentOutput = z.infer<typeof ToolAgentOutput>;

/** What view_skill_file returns. */
export type ViewSkillFileResult =
  | { ok: true; path: string; content: string }
  | { ok: false; error: { code: string; message: string; available_files?: string[] } };

export interface ToolCall {
  /** Normally a ToolName; any other name is recorded as an unknown tool. */
  toolName: string;
  toolCallId: string;
  /** The arguments as the model sent them: may be anything. */
  args: unknown;
  /** A CliResult for project_cli, a ViewSkillFileResult for view_skill_file. */
  output: CliResult | ViewSkillFileResult;
}

export function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The `input` object of a project_cli call, or {} when args or input are not objects. */
export function callInput(args: unknown): Record<string, unknown> {
  return asRecord(asRecord(args).input);
}

const nameOrNull = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);

// The tool's answer is read defensively too: a result of another shape becomes an INTERNAL
// failure instead of an exception.
const CliResultShape = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), module: z.string(), method: z.string(), data: z.unknown() }),
  z.object({
    ok: z.literal(false),
    // Optional: the runtime reports a thrown tool as a bare {ok: false, error}.
    module: z.string().nullable().optional(),
    method: z.string().nullable().optional(),
    error: z.object({
      code: CliErrorCodeSchema,
      message: z.string(),
      retryable: z.boolean().optional(),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  }),
]);

const SkillFileResultShape = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), path: z.string() }),
  z.object({ ok: z.literal(false), error: SkillFileErrorSchema }),
]);

function normalizeCliResult(output: unknown, args: unknown): CliResult {
  const parsed = CliResultShape.safeParse(output);
  // Where the result does not name the method, the call's own names are the best guess.
  const call = asRecord(args);
  if (!parsed.success)
    return failure(nameOrNull(call.module), nameOrNull(call.method), "INTERNAL", "the tool returned a result of an unexpected shape");
  const result = parsed.data;
  if (result.ok) return { ok: true, module: result.module, method: result.method, data: result.data };
  const { code, message, retryable, details } = result.error;
  return {
    ok: false,
    module: result.module ?? nameOrNull(call.module),
    method: result.method ?? nameOrNull(call.method),
    error: { code, message, retryable: retryable ?? CLI_ERROR_CODES[code].retryable, details: details ?? {} },
  };
}

function projectCliOutput(call: ToolCall): ToolAgentOutput {
  const result = normalizeCliResult(call.output, call.args);
  const ui_hints = uiHintsFor(result, callInput(call.args));
  const head = { tool_name: "project_cli" as const, tool_call_id: call.toolCallId, tool_call_args: call.args };
  if (!result.ok)
    return { ...head, status: "failure", result: { module: result.module, method: result.method }, error: result.error, ui_hints };
  const truncated = asRecord(result.data).truncated === true;
  return {
    ...head,
    status: truncated ? "partial" : "success",
    result: { module: result.module, method: result.method, data: result.data },
    error: null,
    ui_hints,
  };
}

function viewSkillFileOutput(call: ToolCall): ToolAgentOutput {
  const parsed = SkillFileResultShape.safeParse(call.output);
  const head = { tool_name: "view_skill_file" as const, tool_call_id: call.toolCallId, tool_call_args: call.args };
  // On failure the result has no path; the one asked for is in the args.
  const askedFor = nameOrNull(asRecord(call.args).path);
  if (!parsed.success) {
    return {
      ...head,
      status: "failure",
      result: { path: askedFor },
      error: { code: "INTERNAL", message: "the tool returned a result of an unexpected shape" },
      ui_hints: null,
    };
  }
  const result = parsed.data;
  if (result.ok) return { ...head, status: "success", result: { path: result.path }, error: null, ui_hints: null };
  const { code, message, available_files } = result.error;
  return {
    ...head,
    status: "failure",
    result: { path: askedFor },
    error: { code, message, ...(available_files ? { available_files } : {}) },
    ui_hints: null,
  };
}

function unknownToolOutput(call: ToolCall): ToolAgentOutput {
  const requested = typeof call.toolName === "string" ? call.toolName : "";
  return {
    tool_name: "unknown_tool",
    tool_call_id: call.toolCallId,
    tool_call_args: call.args,
    status: "failure",
    result: { requested_tool: requested },
    error: { code: "UNKNOWN_TOOL", message: `there is no tool named "${requested}"; the tools are ${TOOL_NAMES.join(" and ")}` },
    ui_hints: null,
  };
}

export function isToolName(name: unknown): name is ToolName {
  return (TOOL_NAMES as readonly unknown[]).includes(name);
}

export function buildToolAgentOutput(call: ToolCall): ToolAgentOutput {
  if (call.toolName === "project_cli") return projectCliOutput(call);
  if (call.toolName === "view_skill_file") return viewSkillFileOutput(call);
  return unknownToolOutput(call);
}
