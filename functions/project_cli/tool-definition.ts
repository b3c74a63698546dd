// project_cli as the model sees it: a thin outer schema (module, method, and a required input
// object) and a short description. The per-method contracts stay server-side and in the
// skill files, so they cost tokens only when read (decision D17).
import { z } from "zod";
import { MODULES } from "./registry.ts";

export const PROJECT_CLI_TOOL_NAME = "project_cli";

export const PROJECT_CLI_DESCRIPTION =
  "Run one business action for the user. `module` picks the area, `method` the action, `input` holds the action's fields " +
  "(always a JSON object). Read the module's skill file first for methods and exact field names. A failed call returns " +
  "an error saying what to change; fix the call rather than repeating it.";

export const ProjectCliToolInput = z.strictObject({
  module: z.enum(Object.keys(MODULES) as [string, ...string[]]).describe("calendar, contacts, memory, or tools where enabled"),
  method: z.string().min(1).describe("action within the module, e.g. read, create, update"),
  input: z.record(z.string(), z.unknown()).describe("the action's fields, exactly as the skill file names them"),
});

/**
 * project_cli is sent non-strict: `input` is a free-form object whose fields depend on the
 * method, and OpenAI's strict mode forbids open objects. The router validates every call in
 * full and answers a corrective error, which is what the model needs anyway (decision D20).
 */
export const PROJECT_CLI_STRICT = false;

/** The OpenAI-style function tool a model receives, for measuring and inspection. */
export function projectCliFunctionTool() {
  return {
    type: "function" as const,
    function: {
      name: PROJECT_CLI_TOOL_NAME,
      description: PROJECT_CLI_DESCRIPTION,
      strict: PROJECT_CLI_STRICT,
      parameters: z.toJSONSchema(ProjectCliToolInput),
    },
  };
}
