import { decodeProtectedHeader, exportJWK, generateKeyPair, jwtVerify } from "jose";
import { beforeAll, describe, expect, test, vi } from "vitest";
import { type CredentialSigner, credentialSource, importCredentialSigner, mintCredential } from "../../functions/lib/auth/credential.ts";

const USER = "11111111-1111-4111-8111-111111111111";
let signer: CredentialSigner;
let publicKey: CryptoKey;

beforeAll(async () => {
  const pair = await generateKeyPair("ES256", { extractable: true });
  publicKey = pair.publicKey;
  const jwk = { ...(await exportJWK(pair.privateKey)), kid: "cred-1" };
  signer = await importCredentialSigner({ ttlSeconds: 300, signingJwk: jwk as never });
});

describe("mintCredential", () => {
  test("carries exactly the claims PostgREST and RLS need", async () => {
    const now = Math.floor(Date.now() / 1000);
    const credential = await mintCredential(USER, signer, { ttlSeconds: 300, audience: "authenticated", now });
    const { payload } = await jwtVerify(credential.token, publicKey, { audience: "authenticated" });
    expect(payload).toEqual({
      sub: USER,
      role: "authenticated",
      aud: "authenticated",
      iss: "edge-agent",
      iat: now,
      exp: now + 300,
      jti: credential.jti,
    });
    expect(credential.expiresAt).toBe(now + 300);
    expect(decodeProtectedHeader(credential.token)).toEqual({ alg: "ES256", kid: "cred-1", typ: "JWT" });
  });

  test("every credential has its own jti", async () => {
    const options = { ttlSeconds: 60, audience: "authenticated" };
    const [a, b] = await Promise.all([mintCredential(USER, signer, options), mintCredential(USER, signer, options)]);
    expect(a.jti).not.toBe(b.jti);
  });

  test.each([59, 601, 0, -1, 120.5, Number.NaN])("refuses a TTL of %s seconds", async (ttlSeconds) => {
    await expect(mintCredential(USER, signer, { ttlSeconds, audience: "authenticated" })).rejects.toThrow(RangeError);
  });

  test.each([60, 600])("accepts the bound %s", async (ttlSeconds) => {
    const credential = await mintCredential(USER, signer, { ttlSeconds, audience: "authenticated", now: 1000 });
    expect(credential.expiresAt).toBe(1000 + ttlSeconds);
  });

  test("falls back to the legacy HS256 secret", async () => {
    const secret = "legacy-secret-legacy-secret-legacy-secret";
    const hs = await importCredentialSigner({ ttlSeconds: 300, legacySecret: secret });
    const credential = await mintCredential(USER, hs, { ttlSeconds: 300, audience: "authenticated" });
    const { payload, protectedHeader } = await jwtVerify(credential.token, new TextEncoder().encode(secret));
    expect(protectedHeader.alg).toBe("HS256");
    expect(payload.sub).toBe(USER);
  });
});

describe("credentialSource", () => {
  test("reuses a credential until it nears expiry, then mints a new one", async () => {
    vi.useFakeTimers({ now: new Date("2026-11-22T10:00:00Z") });
    try {
      const next = credentialSource(USER, signer, { ttlSeconds: 120, audience: "authenticated", refreshBeforeSeconds: 30 });
      const first = await next();
      vi.advanceTimersByTime(60_000);
      expect(await next()).toBe(first);
      vi.advanceTimersByTime(31_000); // 29 s left: inside the refresh margin
      const second = await next();
      expect(second).not.toBe(first);
      const { payload } = await jwtVerify(second, publicKey, { currentDate: new Date() });
      expect(payload.exp! - payload.iat!).toBe(120);
    } finally {
      vi.useRealTimers();
    }
  });

  test("callers in the same tick share one mint", async () => {
    const signs = vi.spyOn(crypto.subtle, "sign");
    try {
      const next = credentialSource(USER, signer, { ttlSeconds: 120, audience: "authenticated" });
      const [a, b] = await Promise.all([next(), next()]);
      expect(a).toBe(b);
      expect(signs).toHaveBeenCalledTimes(1);
    } finally {
      signs.mockRestore();
    }
  });
});
