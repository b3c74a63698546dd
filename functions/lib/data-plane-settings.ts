// The settings every Worker that reaches the data plane shares: where Supabase is, how app
// tokens are verified, how the controlled credential is minted, and how long a data-plane call
// may take. Each Worker extends DATA_PLANE_ENV with its own settings (functions/agent/settings.ts).
import { z } from "zod";
import { DATA_PLANE_TIMEOUT_MS } from "./bounded-fetch.ts";
import { blankToUndefined, optional, required, type SettingProblem, wholeSeconds } from "./settings-parsing.ts";

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

export const CREDENTIAL_TTL_BOUNDS = { min: 60, max: 600, default: 300 } as const;

/** The shared settings' schema, one entry per Env binding. */
export const DATA_PLANE_ENV = {
  SUPABASE_URL: required(z.url({ error: "must be an http(s) URL, e.g. https://<project>.supabase.co" })),
  SUPABASE_ANON_KEY: required(z.string()),
  AUTH_AUDIENCE: optional(z.string().min(1)).default("authenticated"),
  AUTH_ISSUER: optional(z.string().min(1)),
  AUTH_JWKS_URL: optional(z.url({ error: "must be an http(s) URL" })),
  AUTH_JWT_SECRET: optional(z.string().min(32, { error: "must be at least 32 characters" })),
  CREDENTIAL_SIGNING_JWK: optional(signingJwk),
  CREDENTIAL_TTL_SECONDS: optional(wholeSeconds(CREDENTIAL_TTL_BOUNDS.min, CREDENTIAL_TTL_BOUNDS.max)).default(
    CREDENTIAL_TTL_BOUNDS.default,
  ),
  // How long one data-plane call may take.
  DATA_PLANE_TIMEOUT_MS: optional(
    z.coerce
      .number({ error: "must be a number of milliseconds" })
      .int()
      .min(100, { error: "must be at least 100 ms" })
      .max(60_000, { error: "must be at most 60000 ms" }),
  ).default(DATA_PLANE_TIMEOUT_MS),
};

const DataPlaneEnv = z.object(DATA_PLANE_ENV);

export interface DataPlaneSettings {
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
  /** Bound on waiting for the data plane (docs/configuration.md). */
  dataPlane: { timeoutMs: number };
}

/**
 * A credential needs a key: the JWK or the legacy secret. Checked on the raw values, so it is
 * reported together with every other problem.
 */
export function signingKeyProblem(env: Record<string, unknown>): SettingProblem[] {
  if (blankToUndefined(env.CREDENTIAL_SIGNING_JWK) !== undefined || blankToUndefined(env.AUTH_JWT_SECRET) !== undefined) return [];
  return [{ setting: "CREDENTIAL_SIGNING_JWK", problem: "or AUTH_JWT_SECRET is required to mint credentials" }];
}

/** The shared settings from Env values parsed by a schema that includes DATA_PLANE_ENV. */
export function dataPlaneSettings(env: z.output<typeof DataPlaneEnv>): DataPlaneSettings {
  const supabaseUrl = env.SUPABASE_URL.replace(/\/+$/, "");
  return {
    supabaseUrl,
    supabaseAnonKey: env.SUPABASE_ANON_KEY,
    auth: {
      audience: env.AUTH_AUDIENCE,
      issuer: env.AUTH_ISSUER,
      jwksUrl: env.AUTH_JWKS_URL ?? `${supabaseUrl}/auth/v1/.well-known/jwks.json`,
      legacySecret: env.AUTH_JWT_SECRET,
      keysTimeoutMs: env.DATA_PLANE_TIMEOUT_MS,
    },
    credential: {
      ttlSeconds: env.CREDENTIAL_TTL_SECONDS,
      signingJwk: env.CREDENTIAL_SIGNING_JWK,
      legacySecret: env.AUTH_JWT_SECRET,
    },
    dataPlane: { timeoutMs: env.DATA_PLANE_TIMEOUT_MS },
  };
}
