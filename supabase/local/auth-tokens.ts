// Stands in for Supabase Auth locally: signs user access tokens with the local auth key,
// shaped like the ones Supabase issues (sub, role, aud, email, session_id, iat, exp).
import { importJWK, type JWTPayload, SignJWT } from "jose";
import type { LocalKeys } from "./keys.ts";

/** The demo users created by supabase/seed.sql. */
export const SEEDED_USERS = {
  alice: { id: "11111111-1111-4111-8111-111111111111", email: "alice@example.com" },
  bob: { id: "22222222-2222-4222-8222-222222222222", email: "bob@example.com" },
} as const;

export function accessTokenClaims(userId: string, overrides: JWTPayload = {}): JWTPayload {
  const now = Math.floor(Date.now() / 1000);
  return {
    sub: userId,
    role: "authenticated",
    aud: "authenticated",
    email: `${userId.slice(0, 8)}@example.test`,
    session_id: crypto.randomUUID(),
    iat: now,
    exp: now + 3600,
    ...overrides,
  };
}

/** Signs with the local auth key (ES256 + kid), verifiable through the gateway's JWKS. */
export async function signAccessToken(keys: Pick<LocalKeys, "authPrivateJwk">, claims: JWTPayload): Promise<string> {
  const key = await importJWK(keys.authPrivateJwk, "ES256");
  return new SignJWT(claims).setProtectedHeader({ alg: "ES256", kid: keys.authPrivateJwk.kid!, typ: "JWT" }).sign(key);
}
