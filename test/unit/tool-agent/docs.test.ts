// docs/tool-agent.md lists exactly the codes the Tool Agent answers and the settings it reads.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, test } from "vitest";
import { TOOL_AGENT_ERROR_CODES } from "../../../functions/tool-agent/errors.ts";
import { parseToolAgentSettings, TOOL_AGENT_SETTINGS } from "../../../functions/tool-agent/settings.ts";
import { markdownTable } from "../../support/markdown.ts";

const doc = readFileSync(resolve(import.meta.dirname, "../../../docs/tool-agent.md"), "utf8");

test("the error table lists exactly the Tool Agent's codes", () => {
  expect(
    markdownTable(doc, "| code | HTTP | when |")
      .map(([code]) => code)
      .sort(),
  ).toEqual([...TOOL_AGENT_ERROR_CODES].sort());
});

test("the settings tables list exactly the settings, with the defaults the code applies", () => {
  const rows = [
    ...markdownTable(doc, "| setting | default | meaning |"),
    ...markdownTable(doc.slice(doc.indexOf("this platform's own")), "| setting | default | meaning |"),
  ];
  expect(rows.map(([name]) => name).sort()).toEqual([...TOOL_AGENT_SETTINGS].sort());
  const secret = Buffer.alloc(32, 1).toString("base64");
  const parsed = parseToolAgentSettings({
    SUPABASE_URL: "http://127.0.0.1:1",
    SUPABASE_ANON_KEY: "k",
    AUTH_JWT_SECRET: "x".repeat(32),
    TOOL_AGENT_SECRET_KEY: secret,
  });
  expect(parsed.ok).toBe(true);
  // Each documented default, set explicitly, gives the same settings as leaving it unset.
  const explicit = Object.fromEntries(
    rows.filter(([, value]) => value !== "required" && value !== "unset").map(([name, value]) => [name!, value!]),
  );
  const withDefaults = parseToolAgentSettings({
    SUPABASE_URL: "http://127.0.0.1:1",
    SUPABASE_ANON_KEY: "k",
    AUTH_JWT_SECRET: "x".repeat(32),
    TOOL_AGENT_SECRET_KEY: secret,
    ...explicit,
  });
  expect(withDefaults).toEqual(parsed);
});
