// The two tools the worker sees, and nothing else. Their schemas are only advertised to the
// model (jsonSchema() does not validate), so a malformed call still reaches project_cli and
// gets its corrective error instead of a generic schema failure.
// Strict mode is declared per tool, never left to a provider default (Chat Completions omits
// the flag, the Responses API sends false): view_skill_file fits OpenAI's strict subset and is
// sent strict; project_cli's `input` is an open object, which strict mode forbids, so it is
// sent non-strict and validated in full by the router (decision D20).
import { type JSONSchema7, jsonSchema, tool } from "ai";
import { z } from "zod";
import type { CliContext } from "../../project_cli/context.ts";
import type { AllowList } from "../../project_cli/registry.ts";
import { runProjectCli } from "../../project_cli/router.ts";
import {
  PROJECT_CLI_DESCRIPTION,
  PROJECT_CLI_STRICT,
  PROJECT_CLI_TOOL_NAME,
  ProjectCliToolInput,
} from "../../project_cli/tool-definition.ts";
import type { SkillLibrary } from "../skills/skill-library.ts";
import { toStrictJsonSchema } from "./strict-schema.ts";

export const VIEW_SKILL_FILE = "view_skill_file";

const projectCliSchema = z.toJSONSchema(ProjectCliToolInput, { target: "draft-7" }) as JSONSchema7;

export function agentTools(options: {
  cli: CliContext;
  allowed?: AllowList;
  skills: SkillLibrary;
  /** Called when the data plane did not answer, so the run can stop before the next step. */
  onDatabaseUnavailable?: () => void;
}) {
  const viewSkillSchema: JSONSchema7 = toStrictJsonSchema({
    type: "object",
    properties: { path: { type: "string", description: `a skill file, e.g. ${options.skills.paths()[0] ?? "calendar/SKILL.md"}` } },
    required: ["path"],
    additionalProperties: false,
  });
  return {
    [PROJECT_CLI_TOOL_NAME]: tool({
      description: PROJECT_CLI_DESCRIPTION,
      strict: PROJECT_CLI_STRICT,
      inputSchema: jsonSchema<unknown>(projectCliSchema),
      execute: async (input: unknown) => {
        const result = await runProjectCli(input, options.cli, options.allowed ? { allowed: options.allowed } : {});
        if (!result.ok && result.error.code === "UPSTREAM_UNAVAILABLE") options.onDatabaseUnavailable?.();
        return result;
      },
    }),
    [VIEW_SKILL_FILE]: tool({
      strict: true,
      description:
        "Read a skill file (a short index <skill>/SKILL.md, or an action card <skill>/actions/<name>.md) to learn how to call project_cli.",
      inputSchema: jsonSchema<unknown>(viewSkillSchema),
      execute: async (input: unknown) => options.skills.read((input as { path?: unknown } | null)?.path),
    }),
  };
}
