// The Tool Agent's settings: the shared data-plane ones plus the Tool Agent's, each under the
// TOOL_AGENT_ prefix with the contract's name (TOOL_AGENT_MONTHLY_LIMIT_USD is `monthly_limit_usd`),
// and what this platform adds (sandbox limits, call timeouts, the secret key). Validated once per
// Env object; a problem is reported by setting name, never by value.
import { z } from "zod";
import { DATA_PLANE_ENV, type DataPlaneSettings, dataPlaneSettings, signingKeyProblem } from "../lib/data-plane-settings.ts";
import { loadOncePerEnv, optional, type SettingsResult, settingProblems, wholeSeconds } from "../lib/settings-parsing.ts";

const usd = z.coerce.number({ error: "must be an amount in US dollars" }).min(0, { error: "must not be negative" });
const count = (min: number, max: number) =>
  z.coerce
    .number({ error: "must be a whole number" })
    .int({ error: "must be a whole number" })
    .min(min, { error: `must be at least ${min}` })
    .max(max, { error: `must be at most ${max}` });

const ToolAgentEnv = z.object({
  ...DATA_PLANE_ENV,
  // same names and defaults
  TOOL_AGENT_DOCKER_BASE_IMAGE: optional(z.string().min(1)).default("agent-sandbox:latest"),
  TOOL_AGENT_DOCKER_MEM_LIMIT: optional(z.string().regex(/^\d+[kmg]?$/i, { error: 'must be a size such as "512m" or "1g"' })).default("1g"),
  TOOL_AGENT_DOCKER_NANO_CPUS: optional(count(1, 64_000_000_000)).default(1_000_000_000),
  TOOL_AGENT_DOCKER_TTL_SECONDS: optional(wholeSeconds(60, 86_400)).default(1_800),
  TOOL_AGENT_COLD_TOOL_IDLE_TIMEOUT_S: optional(wholeSeconds(10, 86_400)).default(300),
  TOOL_AGENT_HOT_TOOL_MAX_CONTAINERS: optional(count(1, 1_000)).default(5),
  TOOL_AGENT_EVICTION_POLICY: optional(z.enum(["lru"], { error: 'must be "lru" (the only policy)' })).default("lru"),
  TOOL_AGENT_MONTHLY_LIMIT_USD: optional(usd).default(100),
  TOOL_AGENT_SINGLE_TX_LIMIT_USD: optional(usd).default(20),
  TOOL_AGENT_REQUIRE_APPROVAL_ABOVE_USD: optional(usd).default(10),
  TOOL_AGENT_HEALTH_CHECK_INTERVAL_S: optional(wholeSeconds(10, 86_400)).default(60),
  // this platform's own
  /** 32 random bytes, base64: encrypts remote API keys at rest. */
  TOOL_AGENT_SECRET_KEY: z.string({ error: "is required (32 random bytes, base64) to keep remote API keys encrypted" }).min(43, {
    error: "must be 32 random bytes, base64 encoded",
  }),
  /** Browser origins (comma list) allowed to call the API, e.g. the agent's playground; none by default. */
  TOOL_AGENT_CORS_ORIGINS: optional(z.string()),
  /** Deadline of one tool call when its source names none. */
  TOOL_AGENT_CALL_TIMEOUT_MS: optional(count(100, 300_000)).default(10_000),
  /** Sandbox limits of one local tool call (production enforces cpuMs; see loop-guard.ts). */
  TOOL_AGENT_LOCAL_CPU_MS: optional(count(1, 30_000)).default(50),
  TOOL_AGENT_LOCAL_SUBREQUESTS: optional(count(0, 1_000)).default(10),
  TOOL_AGENT_LOCAL_STEP_LIMIT: optional(count(1_000, 1_000_000_000)).default(10_000_000),
  /**
   * Local development and tests only: a process that stands in for containers (docker sources)
   * where Docker cannot run. Production uses Cloudflare Containers (docs/tool-agent.md).
   */
  TOOL_AGENT_CONTAINER_STANDIN_URL: optional(z.url({ error: "must be an http(s) URL" })),
  /** A model for /agent/chat's replies (any OpenAI-compatible API); without a key the rules answer alone. */
  TOOL_AGENT_MODEL_API_KEY: optional(z.string().min(1)),
  TOOL_AGENT_MODEL_BASE_URL: optional(z.url({ error: "must be an http(s) URL of an OpenAI-compatible API" })),
  TOOL_AGENT_MODEL_API: optional(z.enum(["chat", "responses"], { error: 'must be "chat" or "responses"' })).default("chat"),
  TOOL_AGENT_CHAT_MODEL: optional(z.string().min(1)).default("gpt-4o-mini"),
  TOOL_AGENT_MODEL_TIMEOUT_MS: optional(count(500, 60_000)).default(8_000),
  /** The coding agent (tasks): its model (the same endpoint as TOOL_AGENT_MODEL_*), caps and prices. */
  TOOL_AGENT_CODING_MODEL: optional(z.string().min(1)).default("gpt-4o-mini"),
  TOOL_AGENT_CODING_MAX_STEPS: optional(count(2, 100)).default(16),
  TOOL_AGENT_CODING_MAX_COST_USD: optional(usd).default(2),
  TOOL_AGENT_CODING_USD_PER_MTOK_INPUT: optional(usd).default(0.15),
  TOOL_AGENT_CODING_USD_PER_MTOK_OUTPUT: optional(usd).default(0.6),
  TOOL_AGENT_CODING_CALL_TIMEOUT_MS: optional(count(1_000, 600_000)).default(120_000),
  /** An open task with no progress for this long is started again by the watchdog (Cron). */
  TOOL_AGENT_TASK_STALE_S: optional(wholeSeconds(10, 86_400)).default(900),
  /** How often the watchdog starts one task again before failing it. */
  TOOL_AGENT_TASK_MAX_RESTARTS: optional(count(0, 10)).default(2),
  /** Tasks one caller may have pending or running at once; more are refused (429). */
  TOOL_AGENT_MAX_OPEN_TASKS: optional(count(1, 100)).default(3),
  /** Consecutive failed health checks of a local tool before a repair task is started. */
  TOOL_AGENT_REPAIR_AFTER_FAILURES: optional(count(1, 100)).default(3),
  /** Largest repository archive a github_deploy task downloads. */
  TOOL_AGENT_ARCHIVE_MAX_BYTES: optional(count(1_024, 52_428_800)).default(5_242_880),
  /** Largest request and answer body a tool call may carry. */
  TOOL_AGENT_MAX_BODY_BYTES: optional(count(1_024, 10_485_760)).default(1_048_576),
});

/** The Tool Agent's own settings' names (docs/tool-agent.md lists each). */
export const TOOL_AGENT_SETTINGS = Object.keys(ToolAgentEnv.shape).filter((name) => name.startsWith("TOOL_AGENT_"));

export interface ToolAgentSettings extends DataPlaneSettings {
  docker: { baseImage: string; memLimit: string; nanoCpus: number; ttlSeconds: number };
  lifecycle: { coldIdleTimeoutS: number; hotMaxContainers: number; evictionPolicy: "lru"; healthCheckIntervalS: number };
  budget: { monthlyLimitUsd: number; singleTxLimitUsd: number; requireApprovalAboveUsd: number };
  secretKey: string;
  /** Browser origins that get CORS headers (cors.ts). */
  corsOrigins: readonly string[];
  calls: { timeoutMs: number; maxBodyBytes: number };
  sandbox: { cpuMs: number; subRequests: number; stepLimit: number };
  coding: {
    model: string;
    maxSteps: number;
    maxCostUsd: number;
    usdPerMTokInput: number;
    usdPerMTokOutput: number;
    callTimeoutMs: number;
    repairAfterFailures: number;
    archiveMaxBytes: number;
    maxOpenTasks: number;
    staleTaskS: number;
    maxTaskRestarts: number;
  };
  /** Present only with an API key. */
  model?: { apiKey: string; baseUrl?: string; api: "chat" | "responses"; chatModel: string; timeoutMs: number };
}

export function parseToolAgentSettings(env: Record<string, unknown>): SettingsResult<ToolAgentSettings> {
  const parsed = ToolAgentEnv.safeParse(env);
  const problems = [...settingProblems(parsed.error, env), ...signingKeyProblem(env)];
  if (!parsed.success || problems.length > 0) return { ok: false, problems };
  const e = parsed.data;
  return {
    ok: true,
    settings: {
      ...dataPlaneSettings(e),
      docker: {
        baseImage: e.TOOL_AGENT_DOCKER_BASE_IMAGE,
        memLimit: e.TOOL_AGENT_DOCKER_MEM_LIMIT,
        nanoCpus: e.TOOL_AGENT_DOCKER_NANO_CPUS,
        ttlSeconds: e.TOOL_AGENT_DOCKER_TTL_SECONDS,
      },
      lifecycle: {
        coldIdleTimeoutS: e.TOOL_AGENT_COLD_TOOL_IDLE_TIMEOUT_S,
        hotMaxContainers: e.TOOL_AGENT_HOT_TOOL_MAX_CONTAINERS,
        evictionPolicy: e.TOOL_AGENT_EVICTION_POLICY,
        healthCheckIntervalS: e.TOOL_AGENT_HEALTH_CHECK_INTERVAL_S,
      },
      budget: {
        monthlyLimitUsd: e.TOOL_AGENT_MONTHLY_LIMIT_USD,
        singleTxLimitUsd: e.TOOL_AGENT_SINGLE_TX_LIMIT_USD,
        requireApprovalAboveUsd: e.TOOL_AGENT_REQUIRE_APPROVAL_ABOVE_USD,
      },
      secretKey: e.TOOL_AGENT_SECRET_KEY,
      corsOrigins: (e.TOOL_AGENT_CORS_ORIGINS ?? "")
        .split(",")
        .map((origin) => origin.trim().replace(/\/+$/, ""))
        .filter(Boolean),
      calls: { timeoutMs: e.TOOL_AGENT_CALL_TIMEOUT_MS, maxBodyBytes: e.TOOL_AGENT_MAX_BODY_BYTES },
      coding: {
        model: e.TOOL_AGENT_CODING_MODEL,
        maxSteps: e.TOOL_AGENT_CODING_MAX_STEPS,
        maxCostUsd: e.TOOL_AGENT_CODING_MAX_COST_USD,
        usdPerMTokInput: e.TOOL_AGENT_CODING_USD_PER_MTOK_INPUT,
        usdPerMTokOutput: e.TOOL_AGENT_CODING_USD_PER_MTOK_OUTPUT,
        callTimeoutMs: e.TOOL_AGENT_CODING_CALL_TIMEOUT_MS,
        repairAfterFailures: e.TOOL_AGENT_REPAIR_AFTER_FAILURES,
        archiveMaxBytes: e.TOOL_AGENT_ARCHIVE_MAX_BYTES,
        maxOpenTasks: e.TOOL_AGENT_MAX_OPEN_TASKS,
        staleTaskS: e.TOOL_AGENT_TASK_STALE_S,
        maxTaskRestarts: e.TOOL_AGENT_TASK_MAX_RESTARTS,
      },
      sandbox: { cpuMs: e.TOOL_AGENT_LOCAL_CPU_MS, subRequests: e.TOOL_AGENT_LOCAL_SUBREQUESTS, stepLimit: e.TOOL_AGENT_LOCAL_STEP_LIMIT },
      ...(e.TOOL_AGENT_MODEL_API_KEY
        ? {
            model: {
              apiKey: e.TOOL_AGENT_MODEL_API_KEY,
              baseUrl: e.TOOL_AGENT_MODEL_BASE_URL,
              api: e.TOOL_AGENT_MODEL_API,
              chatModel: e.TOOL_AGENT_CHAT_MODEL,
              timeoutMs: e.TOOL_AGENT_MODEL_TIMEOUT_MS,
            },
          }
        : {}),
    },
  };
}

/** Validated once per Env object. */
export const loadToolAgentSettings = loadOncePerEnv(parseToolAgentSettings);
