// Every schema the product sends a model, judged by OpenAI's strict rules (the scripted
// server's checker): the ones declared strict pass; project_cli is declared non-strict because
// its free-form `input` cannot be strict, and the server still validates its limits.

import { createClient } from "@supabase/supabase-js";
import { asSchema } from "ai";
import { describe, expect, test } from "vitest";
import { INTENT_OUTPUT_WIRE_SCHEMA, IntentOutput } from "../../../functions/agent/runtime/intent.ts";
import { toStrictJsonSchema } from "../../../functions/agent/runtime/strict-schema.ts";
import { agentTools } from "../../../functions/agent/runtime/tools.ts";
import { SkillLibrary } from "../../../functions/agent/skills/skill-library.ts";
import { PROJECT_CLI_TOOL_NAME } from "../../../functions/project_cli/tool-definition.ts";
import { strictSchemaViolation } from "../../support/openai-server/strict-schema-rules.ts";

// Only the declarations are inspected: no tool runs, so the client is never called.
const cli = { db: createClient("http://127.0.0.1:9", "unused"), userId: "11111111-1111-4111-8111-111111111111" };
const tools = agentTools({ cli, skills: new SkillLibrary({ "calendar/SKILL.md": "# Calendar\n" }) });

describe("the intent output schema", () => {
  test("is valid under OpenAI's strict rules", () => {
    expect(strictSchemaViolation(INTENT_OUTPUT_WIRE_SCHEMA)).toBeUndefined();
    expect(INTENT_OUTPUT_WIRE_SCHEMA.required).toEqual(Object.keys(IntentOutput.shape));
  });

  test("the plain conversion the SDK sent before is what strict providers refuse", async () => {
    expect(strictSchemaViolation(await asSchema(IntentOutput).jsonSchema)).toContain("Missing 'selected_skill'");
  });

  test("keeps its length limits server-side: a too-long hint is refused after parsing", () => {
    const answer = {
      objective: "x",
      requires_tool: true,
      selected_skill: "c".repeat(65),
      intended_action: null,
      known_entities: null,
      known_time_range: null,
      missing_fields: null,
    };
    expect(IntentOutput.safeParse(answer).error?.issues[0]?.path).toEqual(["selected_skill"]);
    expect(IntentOutput.safeParse({ ...answer, selected_skill: null }).success).toBe(true);
  });
});

describe("tool input schemas", () => {
  test("view_skill_file is sent strict, and its schema is strict-valid", async () => {
    expect(tools.view_skill_file.strict).toBe(true);
    expect(strictSchemaViolation(await asSchema(tools.view_skill_file.inputSchema).jsonSchema)).toBeUndefined();
  });

  test("project_cli is sent non-strict: its open `input` object could not be strict", async () => {
    expect(tools[PROJECT_CLI_TOOL_NAME].strict).toBe(false);
    const schema = await asSchema(tools[PROJECT_CLI_TOOL_NAME].inputSchema).jsonSchema;
    expect(strictSchemaViolation(schema)).toBeDefined();
    expect(() => toStrictJsonSchema(schema)).toThrow(/input: an open object/);
  });
});

describe("toStrictJsonSchema", () => {
  test("refuses an optional key that does not accept null, naming it", () => {
    expect(() => toStrictJsonSchema({ type: "object", properties: { a: { type: "string" } }, required: [] })).toThrow(
      "(root).a: an optional key must accept null",
    );
  });

  test("refuses a keyword outside the strict subset that the server does not enforce itself", () => {
    expect(() => toStrictJsonSchema({ type: "object", properties: { a: { type: "string", default: "x" } }, required: ["a"] })).toThrow(
      'keyword "default"',
    );
  });
});
