// Hand-made tokens for the token matrix: valid ones signed like Supabase Auth would sign
// them, and every kind of bad one.
import { exportJWK, generateKeyPair, importJWK, type JWK, type JWTPayload, SignJWT } from "jose";

export interface TokenKeys {
  authPrivateJwk: JWK;
  legacySecret: string;
}

const base64url = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");

export function userClaims(userId: string, overrides: JWTPayload = {}): JWTPayload {
  const now = Math.floor(Date.now() / 1000);
  return { sub: userId, role: "authenticated", aud: "authenticated", email: "user@example.test", iat: now, exp: now + 3600, ...overrides };
}

/** An access token as Supabase Auth issues it with an asymmetric signing key (ES256 + kid). */
export async function signedWithAuthKey(keys: TokenKeys, claims: JWTPayload): Promise<string> {
  const key = await importJWK(keys.authPrivateJwk, "ES256");
  return new SignJWT(claims).setProtectedHeader({ alg: "ES256", kid: keys.authPrivateJwk.kid!, typ: "JWT" }).sign(key);
}

/** An access token signed with the legacy HS256 JWT secret. */
export async function signedWithLegacySecret(secret: string, claims: JWTPayload): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(new TextEncoder().encode(secret));
}

/** Signed by a key nobody trusts, optionally pretending to be a trusted kid. */
export async function signedWithStrangerKey(claims: JWTPayload, kid = "stranger"): Promise<string> {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  const key = await importJWK(await exportJWK(privateKey), "ES256");
  return new SignJWT(claims).setProtectedHeader({ alg: "ES256", kid, typ: "JWT" }).sign(key);
}

/** The classic downgrade: no signature at all. */
export function unsignedToken(claims: JWTPayload): string {
  return `${base64url({ alg: "none", typ: "JWT" })}.${base64url(claims)}.`;
}
