// Worker settings: read from the Env bindings, validated once per Env object. A bad or
// missing setting is reported by name and problem, never by value (values may be secrets).
import { z } from "zod";
import { type AllowList, parseAllowList } from "../project_cli/registry.ts";
import { DATA_PLANE_TIMEOUT_MS } from "./bounded-fetch.ts";

/** A blank value in .dev.vars or the dashboard means "not set". */
const blankToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());
const required = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema);

const signingJwk = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: "must be a JSON Web Key (JSON object)" });
      return z.NEVER;
    }
  })
  .pipe(
    z.looseObject({
      kty: z.literal("EC", { error: 'must be an EC key ("kty": "EC")' }),
      crv: z.literal("P-256", { error: 'must be a P-256 key ("crv": "P-256") for ES256' }),
      d: z.string({ error: 'must be a private key (has "d")' }).min(1),
      kid: z.string({ error: 'must carry a key id ("kid")' }).min(1),
      x: z.string().min(1),
      y: z.string().min(1),
    }),
  );

/** The OpenAI wire APIs a deployment can talk to (docs/configuration.md says which to pick). */
export const MODEL_APIS = ["chat", "responses"] as const;
export type ModelApi = (typeof MODEL_APIS)[number];

export const CREDENTIAL_TTL_BOUNDS = { min: 60, max: 600, default: 300 } as const;

const EnvSchema = z.object({
  SUPABASE_URL: required(z.url({ error: "must be an http(s) URL, e.g. https://<project>.supabase.co" })),
  SUPABASE_ANON_KEY: required(z.string()),
  AUTH_AUDIENCE: optional(z.string().min(1)).default("authenticated"),
  AUTH_ISSUER: optional(z.string().min(1)),
  AUTH_JWKS_URL: optional(z.url({ error: "must be an http(s) URL" })),
  AUTH_JWT_SECRET: optional(z.string().min(32, { error: "must be at least 32 characters" })),
  CREDENTIAL_SIGNING_JWK: optional(signingJwk),
  CREDENTIAL_TTL_SECONDS: optional(
    z.coerce
      .number({ error: "must be a number of seconds" })
      .int({ error: "must be a whole number of seconds" })
      .min(CREDENTIAL_TTL_BOUNDS.min, { error: `must be at least ${CREDENTIAL_TTL_BOUNDS.min} seconds` })
      .max(CREDENTIAL_TTL_BOUNDS.max, { error: `must be at most ${CREDENTIAL_TTL_BOUNDS.max} seconds` }),
  ).default(CREDENTIAL_TTL_BOUNDS.default),
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
  // Faults: how long one data-plane call may take, and how long a run may stay silent.
  DATA_PLANE_TIMEOUT_MS: optional(
    z.coerce
      .number({ error: "must be a number of milliseconds" })
      .int()
      .min(100, { error: "must be at least 100 ms" })
      .max(60_000, { error: "must be at most 60000 ms" }),
  ).default(DATA_PLANE_TIMEOUT_MS),
  RUN_IDLE_TIMEOUT_SECONDS: optional(
    z.coerce
      .number({ error: "must be a number of seconds" })
      .int()
      .min(5, { error: "must be at least 5 seconds" })
      .max(3_600, { error: "must be at most 3600 seconds" }),
  ).default(300),
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

// Checked on the raw values, so it is reported together with every other problem.
function signingKeyProblem(env: Record<string, unknown>): SettingProblem[] {
  if (blankToUndefined(env.CREDENTIAL_SIGNING_JWK) !== undefined || blankToUndefined(env.AUTH_JWT_SECRET) !== undefined) return [];
  return [{ setting: "CREDENTIAL_SIGNING_JWK", problem: "or AUTH_JWT_SECRET is required to mint credentials" }];
}

export interface Settings {
  supabaseUrl: string;
  supabaseAnonKey: string;
  auth: {
    audience: string;
    issuer?: string;
    jwksUrl: string;
    legacySecret?: string;
    /** Deadline for fetching the key set (DATA_PLANE_TIMEOUT_MS). */
    keysTimeoutMs: number;
  };
  credential: {
    ttlSeconds: number;
    signingJwk?: z.infer<typeof signingJwk>;
    legacySecret?: string;
  };
  /** Bounds on waiting for the data plane and for a silent run (docs/configuration.md). */
  dataPlane: { timeoutMs: number };
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
    /** project_cli methods this deployment allows; absent means all. */
    allowedMethods?: AllowList;
  };
}

export interface SettingProblem {
  setting: string;
  problem: string;
}

export type SettingsResult = { ok: true; settings: Settings } | { ok: false; problems: SettingProblem[] };

export function parseSettings(env: Record<string, unknown>): SettingsResult {
  const parsed = EnvSchema.safeParse(env);
  const problems = [
    ...(parsed.error?.issues ?? []).map((issue) => ({
      setting: String(issue.path[0] ?? "(settings)"),
      // zod's wording for a missing setting is "expected string, received undefined".
      problem: issue.code === "invalid_type" && issue.input === undefined && issue.path.length === 1 ? "is required" : issue.message,
    })),
    ...signingKeyProblem(env),
  ];
  if (!parsed.success || problems.length > 0) return { ok: false, problems };
  const env_ = parsed.data;
  const supabaseUrl = env_.SUPABASE_URL.replace(/\/+$/, "");
  return {
    ok: true,
    settings: {
      supabaseUrl,
      supabaseAnonKey: env_.SUPABASE_ANON_KEY,
      auth: {
        audience: env_.AUTH_AUDIENCE,
        issuer: env_.AUTH_ISSUER,
        jwksUrl: env_.AUTH_JWKS_URL ?? `${supabaseUrl}/auth/v1/.well-known/jwks.json`,
        legacySecret: env_.AUTH_JWT_SECRET,
        keysTimeoutMs: env_.DATA_PLANE_TIMEOUT_MS,
      },
      credential: {
        ttlSeconds: env_.CREDENTIAL_TTL_SECONDS,
        signingJwk: env_.CREDENTIAL_SIGNING_JWK,
        legacySecret: env_.AUTH_JWT_SECRET,
      },
      dataPlane: { timeoutMs: env_.DATA_PLANE_TIMEOUT_MS },
      runs: { idleTimeoutMs: env_.RUN_IDLE_TIMEOUT_SECONDS * 1000 },
      agent: {
        modelApiKey: env_.AGENT_MODEL_API_KEY,
        modelBaseUrl: env_.AGENT_MODEL_BASE_URL,
        modelApi: env_.AGENT_MODEL_API,
        intentModel: env_.AGENT_INTENT_MODEL,
        executionModel: env_.AGENT_EXECUTION_MODEL,
        maxSteps: env_.AGENT_MAX_STEPS,
        temperature: env_.AGENT_TEMPERATURE,
        enabledSkills: env_.AGENT_ENABLED_SKILLS?.split(",")
          .map((name) => name.trim())
          .filter(Boolean),
        preloadActionCard: env_.AGENT_PRELOAD_ACTION_CARD === "true",
        allowedMethods: env_.PROJECT_CLI_ALLOW,
      },
    },
  };
}

export function describeProblems(problems: SettingProblem[]): string {
  return `invalid configuration: ${problems.map((p) => `${p.setting} ${p.problem}`).join("; ")}`;
}

// Workers have no start-up hook; the Env object is stable per isolate, so validate it once.
const cache = new WeakMap<object, SettingsResult>();

export function loadSettings(env: object): SettingsResult {
  let result = cache.get(env);
  if (!result) {
    result = parseSettings(env as Record<string, unknown>);
    cache.set(env, result);
  }
  return result;
}
