import { exportJWK, generateKeyPair } from "jose";
import { beforeAll, describe, expect, test } from "vitest";
import { loadSettings, parseSettings } from "../../../functions/agent/settings.ts";
import { describeProblems } from "../../../functions/lib/settings-parsing.ts";

let privateJwk: string;
let publicJwk: string;

beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  privateJwk = JSON.stringify({ ...(await exportJWK(privateKey)), kid: "k1" });
  publicJwk = JSON.stringify({ ...(await exportJWK(publicKey)), kid: "k1" });
});

const SECRET = "a-legacy-secret-that-is-long-enough-32+";
const valid = () => ({ SUPABASE_URL: "https://demo.supabase.co/", SUPABASE_ANON_KEY: "anon", CREDENTIAL_SIGNING_JWK: privateJwk });

function problemsOf(env: Record<string, unknown>) {
  const result = parseSettings(env);
  if (result.ok) throw new Error("expected invalid settings");
  return result.problems;
}

describe("parseSettings", () => {
  test("applies defaults and derives the JWKS URL from the project URL", () => {
    const result = parseSettings(valid());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.settings.supabaseUrl).toBe("https://demo.supabase.co");
    expect(result.settings.auth).toEqual({
      audience: "authenticated",
      jwksUrl: "https://demo.supabase.co/auth/v1/.well-known/jwks.json",
      keysTimeoutMs: 5_000,
    });
    expect(result.settings.credential.ttlSeconds).toBe(300);
    expect(result.settings.dataPlane).toEqual({ timeoutMs: 5_000 });
    expect(result.settings.runs).toEqual({ idleTimeoutMs: 300_000 });
  });

  test("the tools module is off unless the allow-list names it; its skill follows the allow-list", () => {
    const byDefault = parseSettings(valid());
    const enabled = parseSettings({ ...valid(), PROJECT_CLI_ALLOW: "*" });
    const chosen = parseSettings({ ...valid(), PROJECT_CLI_ALLOW: "calendar.read,tools.*", AGENT_ENABLED_SKILLS: "calendar" });
    if (!byDefault.ok || !enabled.ok || !chosen.ok) throw new Error("expected valid settings");
    expect([...byDefault.settings.agent.allowedMethods!].some((name) => name.startsWith("tools."))).toBe(false);
    expect(byDefault.settings.agent.allowedMethods!.has("calendar.create")).toBe(true);
    expect(byDefault.settings.agent.enabledSkills).toEqual(["calendar", "contacts", "memory"]);
    expect(enabled.settings.agent.allowedMethods!.has("tools.call")).toBe(true);
    expect(enabled.settings.agent.enabledSkills).toEqual(["calendar", "contacts", "memory", "tools"]);
    expect(chosen.settings.agent.enabledSkills).toEqual(["calendar"]); // an explicit list wins
  });

  test("the data-plane deadline, the run idle limit and the model's silence: read, bounded, and named when wrong", () => {
    const result = parseSettings({
      ...valid(),
      DATA_PLANE_TIMEOUT_MS: "1500",
      RUN_IDLE_TIMEOUT_SECONDS: "60",
      AGENT_MODEL_IDLE_TIMEOUT_SECONDS: "30",
    });
    expect(
      result.ok && [
        result.settings.dataPlane.timeoutMs,
        result.settings.auth.keysTimeoutMs,
        result.settings.runs.idleTimeoutMs,
        result.settings.agent.modelIdleTimeoutMs,
      ],
    ).toEqual([1_500, 1_500, 60_000, 30_000]);
    const byDefault = parseSettings(valid());
    expect(byDefault.ok && byDefault.settings.agent.modelIdleTimeoutMs).toBe(120_000);
    for (const [setting, value] of [
      ["DATA_PLANE_TIMEOUT_MS", "0"],
      ["DATA_PLANE_TIMEOUT_MS", "600000"],
      ["DATA_PLANE_TIMEOUT_MS", "soon"],
      ["RUN_IDLE_TIMEOUT_SECONDS", "1"],
      ["RUN_IDLE_TIMEOUT_SECONDS", "1.5"],
      ["AGENT_MODEL_IDLE_TIMEOUT_SECONDS", "0"],
      ["AGENT_MODEL_IDLE_TIMEOUT_SECONDS", "601"],
      ["AGENT_MODEL_IDLE_TIMEOUT_SECONDS", "2.5"],
    ] as const) {
      expect(
        problemsOf({ ...valid(), [setting]: value }).map((p) => p.setting),
        `${setting}=${value}`,
      ).toEqual([setting]);
    }
  });

  test("AGENT_MODEL_API: Chat Completions by default, the Responses API on request, anything else refused by name", () => {
    const chosen = (value?: string) => {
      const result = parseSettings({ ...valid(), ...(value === undefined ? {} : { AGENT_MODEL_API: value }) });
      return result.ok ? result.settings.agent.modelApi : undefined;
    };
    expect(chosen()).toBe("chat");
    expect(chosen(" ")).toBe("chat");
    expect(chosen("responses")).toBe("responses");
    expect(problemsOf({ ...valid(), AGENT_MODEL_API: "completions" })).toEqual([
      { setting: "AGENT_MODEL_API", problem: 'must be "chat" or "responses"' },
    ]);
  });

  test("names every missing setting", () => {
    const problems = problemsOf({});
    expect(problems).toEqual(
      expect.arrayContaining([
        { setting: "SUPABASE_URL", problem: "is required" },
        { setting: "SUPABASE_ANON_KEY", problem: "is required" },
      ]),
    );
    expect(problems.map((p) => p.setting)).toContain("CREDENTIAL_SIGNING_JWK");
  });

  test("a setting that is set but not a number says so, instead of being called missing", () => {
    expect(problemsOf({ ...valid(), CREDENTIAL_TTL_SECONDS: "soon", AGENT_MODEL_IDLE_TIMEOUT_SECONDS: "two minutes" })).toEqual([
      { setting: "CREDENTIAL_TTL_SECONDS", problem: "must be a number of seconds" },
      { setting: "AGENT_MODEL_IDLE_TIMEOUT_SECONDS", problem: "must be a number of seconds" },
    ]);
    // Blank is unset: a required setting left blank is still "required".
    expect(problemsOf({ ...valid(), SUPABASE_URL: " " })).toEqual([{ setting: "SUPABASE_URL", problem: "is required" }]);
  });

  test("empty strings count as unset", () => {
    expect(problemsOf({ ...valid(), SUPABASE_ANON_KEY: "  " }).map((p) => p.setting)).toEqual(["SUPABASE_ANON_KEY"]);
  });

  test.each([
    ["59", "must be at least 60 seconds"],
    ["601", "must be at most 600 seconds"],
    ["90.5", "must be a whole number of seconds"],
    ["soon", "must be a number of seconds"],
  ])("refuses CREDENTIAL_TTL_SECONDS=%s: it %s", (ttl, problem) => {
    expect(problemsOf({ ...valid(), CREDENTIAL_TTL_SECONDS: ttl })).toEqual([{ setting: "CREDENTIAL_TTL_SECONDS", problem }]);
  });

  test.each([
    ["60", 60],
    ["600", 600],
  ])("accepts CREDENTIAL_TTL_SECONDS=%s", (ttl, seconds) => {
    const result = parseSettings({ ...valid(), CREDENTIAL_TTL_SECONDS: ttl });
    expect(result.ok && result.settings.credential.ttlSeconds).toBe(seconds);
  });

  test("a public key is not a signing key", () => {
    const [problem] = problemsOf({ ...valid(), CREDENTIAL_SIGNING_JWK: publicJwk });
    expect(problem).toEqual({ setting: "CREDENTIAL_SIGNING_JWK", problem: 'must be a private key (has "d")' });
  });

  test("the legacy secret alone is enough to mint, and must be long", () => {
    const { CREDENTIAL_SIGNING_JWK: _, ...withoutJwk } = valid();
    expect(parseSettings({ ...withoutJwk, AUTH_JWT_SECRET: SECRET }).ok).toBe(true);
    expect(problemsOf({ ...withoutJwk, AUTH_JWT_SECRET: "short" }).map((p) => p.setting)).toContain("AUTH_JWT_SECRET");
  });

  test("problems never quote a value", () => {
    const problems = problemsOf({ SUPABASE_URL: SECRET, SUPABASE_ANON_KEY: "anon", CREDENTIAL_SIGNING_JWK: `{"kty":"EC","d":"${SECRET}"` });
    const text = describeProblems(problems);
    expect(text).toContain("SUPABASE_URL");
    expect(text).toContain("CREDENTIAL_SIGNING_JWK");
    expect(text).not.toContain(SECRET);
  });

  test("loadSettings validates an Env object once", () => {
    const env = valid();
    expect(loadSettings(env)).toBe(loadSettings(env));
  });
});
