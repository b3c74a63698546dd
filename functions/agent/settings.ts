// The agent Worker's settings: the shared data-plane ones (functions/lib/data-plane-settings.ts)
// plus the models, the run limits and which project_cli methods may run. Read from the Env
// bindings and validated once per Env object; a bad or missing setting is reported by name and
// problem, never by value.
import { z } from "zod";
import { DATA_PLANE_ENV, type DataPlaneSettings, dataPlaneSettings, signingKeyProblem } from "../lib/data-plane-settings.ts";
import { loadOncePerEnv, optional, type SettingsResult, settingProblems, wholeSeconds } from "../lib/settings-parsing.ts";
import { type AllowList, DEFAULT_ALLOW_LIST, modulesAllowed, parseAllowList } from "../project_cli/registry.ts";

/** The OpenAI wire APIs a deployment can talk to (docs/configuration.md says which to pick). */
export const MODEL_APIS = ["chat", "responses"] as const;
export type ModelApi = (typeof MODEL_APIS)[number];

const AgentEnv = z.object({
  ...DATA_PLANE_ENV,
  // Models: any OpenAI-compatible endpoint. Without a key the offline demo model runs.
  AGENT_MODEL_BASE_URL: optional(z.url({ error: "must be an http(s) URL of an OpenAI-compatible API" })),
  AGENT_MODEL_API_KEY: optional(z.string().min(1)),
  // Chat Completions by default: the API nearly every OpenAI-compatible server implements.
  AGENT_MODEL_API: optional(z.enum(MODEL_APIS, { error: 'must be "chat" or "responses"' })).default("chat"),
  AGENT_INTENT_MODEL: optional(z.string().min(1)).default("gpt-4o-mini"),
  AGENT_EXECUTION_MODEL: optional(z.string().min(1)).default("gpt-4o-mini"),
  AGENT_MAX_STEPS: optional(
    z.coerce.number().int().min(1, { error: "must be at least 1" }).max(20, { error: "must be at most 20" }),
  ).default(7),
  AGENT_TEMPERATURE: optional(z.coerce.number().min(0).max(2, { error: "must be between 0 and 2" })),
  AGENT_ENABLED_SKILLS: optional(z.string()),
  AGENT_PRELOAD_ACTION_CARD: optional(z.enum(["true", "false"], { error: 'must be "true" or "false"' })).default("true"),
  // How long a model call may send nothing before it has failed (reasoning models think in silence).
  AGENT_MODEL_IDLE_TIMEOUT_SECONDS: optional(wholeSeconds(1, 600)).default(120),
  // How long a run may stay silent before its hub ends it.
  RUN_IDLE_TIMEOUT_SECONDS: optional(wholeSeconds(5, 3_600)).default(300),
  // Where the playground's Tool Agent tab sends its requests (the Tool Agent's public URL).
  PLAYGROUND_TOOL_AGENT_URL: optional(z.url({ error: "must be the http(s) URL of the Tool Agent" })),
  // project_cli reads its own allow-list syntax; this setting only says where it comes from.
  PROJECT_CLI_ALLOW: optional(
    z.string().transform((spec, ctx) => {
      try {
        return parseAllowList(spec);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: (error as Error).message });
        return z.NEVER;
      }
    }),
  ),
});

export interface Settings extends DataPlaneSettings {
  /** Bound on a silent run (docs/configuration.md). */
  runs: { idleTimeoutMs: number };
  agent: {
    /** Absent: the offline demo model runs (labelled as such). */
    modelApiKey?: string;
    modelBaseUrl?: string;
    /** Chat Completions or the Responses API, for both stages. */
    modelApi: ModelApi;
    intentModel: string;
    executionModel: string;
    maxSteps: number;
    /** Left to the provider's default unless set. */
    temperature?: number;
    /** Skill folders the agent may read; absent means all bundled skills. */
    enabledSkills?: readonly string[];
    preloadActionCard: boolean;
    /** A model call silent for this long has failed. */
    modelIdleTimeoutMs: number;
    /** project_cli methods this deployment allows; absent means all. */
    allowedMethods?: AllowList;
  };
  /** What the browser playground (/playground/) is told; see routes/playground.ts. */
  playground: { toolAgentUrl?: string };
}

export function parseSettings(env: Record<string, unknown>): SettingsResult<Settings> {
  const parsed = AgentEnv.safeParse(env);
  const problems = [...settingProblems(parsed.error, env), ...signingKeyProblem(env)];
  if (!parsed.success || problems.length > 0) return { ok: false, problems };
  const env_ = parsed.data;
  return {
    ok: true,
    settings: {
      ...dataPlaneSettings(env_),
      runs: { idleTimeoutMs: env_.RUN_IDLE_TIMEOUT_SECONDS * 1000 },
      agent: {
        modelApiKey: env_.AGENT_MODEL_API_KEY,
        modelBaseUrl: env_.AGENT_MODEL_BASE_URL,
        modelApi: env_.AGENT_MODEL_API,
        intentModel: env_.AGENT_INTENT_MODEL,
        executionModel: env_.AGENT_EXECUTION_MODEL,
        maxSteps: env_.AGENT_MAX_STEPS,
        temperature: env_.AGENT_TEMPERATURE,
        // By default the skills of the modules the allow-list enables (skills are named after modules).
        enabledSkills:
          env_.AGENT_ENABLED_SKILLS?.split(",")
            .map((name) => name.trim())
            .filter(Boolean) ?? modulesAllowed(env_.PROJECT_CLI_ALLOW ?? DEFAULT_ALLOW_LIST),
        preloadActionCard: env_.AGENT_PRELOAD_ACTION_CARD === "true",
        modelIdleTimeoutMs: env_.AGENT_MODEL_IDLE_TIMEOUT_SECONDS * 1000,
        allowedMethods: env_.PROJECT_CLI_ALLOW ?? DEFAULT_ALLOW_LIST,
      },
      playground: { toolAgentUrl: env_.PLAYGROUND_TOOL_AGENT_URL?.replace(/\/+$/, "") },
    },
  };
}

/** Validated once per Env object. */
export const loadSettings = loadOncePerEnv(parseSettings);
