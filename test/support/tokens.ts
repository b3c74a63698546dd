// Hand-made tokens for the token matrix, beside the local auth signer
// (supabase/local/auth-tokens.ts): the legacy HS256 kind and every kind of bad one.
import { exportJWK, generateKeyPair, importJWK, type JWTPayload, SignJWT } from "jose";

const base64url = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");

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
