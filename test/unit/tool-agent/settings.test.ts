import { expect, test } from "vitest";
import { parseToolAgentSettings } from "../../../functions/tool-agent/settings.ts";

const base = {
  SUPABASE_URL: "http://127.0.0.1:1",
  SUPABASE_ANON_KEY: "k",
  AUTH_JWT_SECRET: "x".repeat(32),
  TOOL_AGENT_SECRET_KEY: Buffer.alloc(32, 9).toString("base64"),
};

test("the spec's names under the prefix, parsed to numbers", () => {
  const parsed = parseToolAgentSettings({
    ...base,
    TOOL_AGENT_MONTHLY_LIMIT_USD: "250.5",
    TOOL_AGENT_HOT_TOOL_MAX_CONTAINERS: "3",
    TOOL_AGENT_LOCAL_CPU_MS: "",
  });
  expect(parsed.ok && parsed.settings.budget.monthlyLimitUsd).toBe(250.5);
  expect(parsed.ok && parsed.settings.lifecycle.hotMaxContainers).toBe(3);
  expect(parsed.ok && parsed.settings.sandbox.cpuMs).toBe(50); // blank means unset
});

test("every problem is named by setting, never by value", () => {
  const secretLooking = "sk-never-print-me-0123456789";
  const parsed = parseToolAgentSettings({
    ...base,
    TOOL_AGENT_SECRET_KEY: undefined,
    TOOL_AGENT_MONTHLY_LIMIT_USD: "-1",
    TOOL_AGENT_EVICTION_POLICY: "fifo",
    TOOL_AGENT_DOCKER_MEM_LIMIT: secretLooking,
    TOOL_AGENT_CONTAINER_STANDIN_URL: "not a url",
  });
  expect(parsed.ok).toBe(false);
  if (parsed.ok) return;
  expect(parsed.problems.map((p) => p.setting).sort()).toEqual([
    "TOOL_AGENT_CONTAINER_STANDIN_URL",
    "TOOL_AGENT_DOCKER_MEM_LIMIT",
    "TOOL_AGENT_EVICTION_POLICY",
    "TOOL_AGENT_MONTHLY_LIMIT_USD",
    "TOOL_AGENT_SECRET_KEY",
  ]);
  expect(JSON.stringify(parsed.problems)).not.toContain("never-print-me");
});
