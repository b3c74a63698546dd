// The token matrix, end to end through the Worker: GET /api/v1/me behind requireUser, with
// keys fetched from the local gateway's JWKS endpoint and the legacy secret from the env.
import { env, exports } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, inject, type MockInstance, test, vi } from "vitest";
import { createApp } from "../../functions/agent/app.ts";
import { importCredentialSigner, mintCredential } from "../../functions/lib/auth/credential.ts";
import { accessTokenClaims, signAccessToken } from "../../supabase/local/auth-tokens.ts";
import { signedWithLegacySecret, signedWithStrangerKey, unsignedToken } from "../support/tokens.ts";

const stack = inject("localStack");
const USER = "11111111-1111-4111-8111-111111111111";
const now = () => Math.floor(Date.now() / 1000);

const me = (authorization?: string) =>
  exports.default.fetch("http://worker/api/v1/me", { headers: authorization ? { authorization } : {} });

let logs: MockInstance[];
const logged = () => logs.flatMap((spy) => spy.mock.calls.map((args) => args.join(" "))).join("\n");

beforeEach(() => {
  logs = [vi.spyOn(console, "log"), vi.spyOn(console, "warn"), vi.spyOn(console, "error")];
});
afterEach(() => vi.restoreAllMocks());

describe("accepted tokens", () => {
  test("an ES256 token from Supabase Auth, verified through the JWKS endpoint", async () => {
    const response = await me(`Bearer ${await signAccessToken(stack.keys, accessTokenClaims(USER, { email: "alice@example.com" }))}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ user_id: USER, role: "authenticated", email: "alice@example.com" });
  });

  test("an HS256 token signed with the legacy JWT secret", async () => {
    const response = await me(`Bearer ${await signedWithLegacySecret(stack.keys.legacySecret, accessTokenClaims(USER))}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ user_id: USER });
  });
});

describe("rejected tokens answer 401 with a stable reason", () => {
  const cases: Array<[string, () => Promise<string | undefined>, string]> = [
    ["missing", async () => undefined, "missing_token"],
    ["not a bearer scheme", async () => `Basic ${btoa("alice:secret")}`, "missing_token"],
    ["malformed", async () => "Bearer not-a-jwt", "malformed_token"],
    [
      "expired",
      async () => `Bearer ${await signAccessToken(stack.keys, accessTokenClaims(USER, { iat: now() - 7200, exp: now() - 3600 }))}`,
      "token_expired",
    ],
    ["signed by an unknown key", async () => `Bearer ${await signedWithStrangerKey(accessTokenClaims(USER))}`, "invalid_signature"],
    [
      "signed by a stranger claiming a trusted kid",
      async () => `Bearer ${await signedWithStrangerKey(accessTokenClaims(USER), stack.keys.authPrivateJwk.kid)}`,
      "invalid_signature",
    ],
    [
      "HS256 with the wrong secret",
      async () => `Bearer ${await signedWithLegacySecret("x".repeat(40), accessTokenClaims(USER))}`,
      "invalid_signature",
    ],
    ["alg: none", async () => `Bearer ${unsignedToken(accessTokenClaims(USER))}`, "unsupported_algorithm"],
    [
      "for another audience",
      async () => `Bearer ${await signAccessToken(stack.keys, accessTokenClaims(USER, { aud: "other-app" }))}`,
      "invalid_audience",
    ],
    ["the anon key (no audience, no user)", async () => `Bearer ${stack.anonKey}`, "invalid_audience"],
    [
      "an anon-role token for the right audience",
      async () => `Bearer ${await signAccessToken(stack.keys, accessTokenClaims(USER, { role: "anon" }))}`,
      "invalid_claims",
    ],
    [
      "a subject that is not a user id",
      async () => `Bearer ${await signAccessToken(stack.keys, accessTokenClaims("admin"))}`,
      "invalid_claims",
    ],
    [
      "a service_role token",
      async () =>
        `Bearer ${await signedWithLegacySecret(stack.keys.legacySecret, { role: "service_role", aud: "authenticated", exp: now() + 60, sub: "svc" })}`,
      "invalid_claims",
    ],
  ];

  test.each(cases)("%s", async (_label, header, reason) => {
    const authorization = await header();
    const response = await me(authorization);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toContain("Bearer");
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ error: { code: "UNAUTHENTICATED", reason } });
    // Neither the answer nor the logs repeat the token.
    const token = authorization?.split(" ")[1];
    if (token) {
      expect(text).not.toContain(token);
      expect(logged()).not.toContain(token);
    }
    expect(logged()).toContain(reason);
  });
});

describe("the controlled credential is for the data plane only", () => {
  // Both are accepted by PostgREST (the local JWKS publishes the credential key, and HS256
  // credentials share the legacy secret with app tokens), so only issuer and kid tell them apart.
  const es256 = async () =>
    mintCredential(USER, await importCredentialSigner({ ttlSeconds: 300, signingJwk: stack.keys.credentialPrivateJwk as never }), {
      ttlSeconds: 300,
      audience: "authenticated",
    });
  const hs256 = async () =>
    mintCredential(USER, await importCredentialSigner({ ttlSeconds: 300, legacySecret: stack.keys.legacySecret }), {
      ttlSeconds: 300,
      audience: "authenticated",
    });

  test.each([
    ["an ES256 credential (the Worker's CREDENTIAL_SIGNING_JWK)", es256],
    ["an HS256 credential (signed with the legacy secret app tokens also use)", hs256],
  ])("%s sent as the bearer token: 401 credential_not_accepted", async (_label, mint) => {
    const { token } = await mint();
    const response = await me(`Bearer ${token}`);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: "UNAUTHENTICATED", reason: "credential_not_accepted" } });
    expect(logged()).not.toContain(token);
  });

  test("an HS256 credential is refused also by a Worker configured for HS256 credentials only", async () => {
    const { token } = await hs256();
    const response = await createApp().request(
      "/api/v1/me",
      { headers: { authorization: `Bearer ${token}` } },
      { ...env, CREDENTIAL_SIGNING_JWK: "" },
    );
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { reason: "credential_not_accepted" } });
  });

  test("a token signed with the credential key is refused by its kid, whatever issuer it claims", async () => {
    const token = await signAccessToken({ ...stack.keys, authPrivateJwk: stack.keys.credentialPrivateJwk }, accessTokenClaims(USER));
    const response = await me(`Bearer ${token}`);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { reason: "credential_not_accepted" } });
  });

  test("app tokens are unaffected (control)", async () => {
    expect((await me(`Bearer ${await signAccessToken(stack.keys, accessTokenClaims(USER))}`)).status).toBe(200);
  });
});

describe("a token verified once (verified-tokens.ts)", () => {
  test("is verified again from its expiry on: the answer turns to token_expired", async () => {
    const exp = now() + 2;
    const authorization = `Bearer ${await signAccessToken(stack.keys, accessTokenClaims(USER, { exp }))}`;
    expect((await me(authorization)).status).toBe(200);
    expect((await me(authorization)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, exp * 1000 - Date.now() + 50));
    const response = await me(authorization);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { reason: "token_expired" } });
  });

  test("counts under the settings that verified it only: other settings check it in full", async () => {
    const token = await signAccessToken(stack.keys, accessTokenClaims(USER));
    expect((await me(`Bearer ${token}`)).status).toBe(200);
    const elsewhere = await createApp().request(
      "/api/v1/me",
      { headers: { authorization: `Bearer ${token}` } },
      { ...env, AUTH_JWKS_URL: "http://127.0.0.1:9/jwks.json" },
    );
    expect(elsewhere.status).toBe(503);
  });
});

test("an unreachable JWKS endpoint is our outage (503), not the caller's fault", async () => {
  const app = createApp();
  const token = await signAccessToken(stack.keys, accessTokenClaims(USER));
  const response = await app.request(
    "/api/v1/me",
    { headers: { authorization: `Bearer ${token}` } },
    { ...env, AUTH_JWKS_URL: "http://127.0.0.1:9/jwks.json" },
  );
  expect(response.status).toBe(503);
  expect(await response.json()).toMatchObject({ error: { code: "UPSTREAM_UNAVAILABLE", retryable: true } });
});

test("unknown routes answer 404 JSON", async () => {
  const response = await exports.default.fetch("http://worker/nope");
  expect(response.status).toBe(404);
  expect(await response.json()).toMatchObject({ error: { code: "NOT_FOUND" } });
});
