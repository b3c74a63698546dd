// Key material of the local stack, standing in for a Supabase project's signing keys:
//   auth       ES256 key that "Supabase Auth" signs user access tokens with (dev tokens);
//   credential ES256 key the Worker signs controlled credentials with;
//   legacy     the HS256 JWT secret (Supabase's legacy secret), also used for the anon key.
// PostgREST trusts all three; the gateway publishes the two public keys as a JWKS, the way
// Supabase serves /auth/v1/.well-known/jwks.json.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";

export interface LocalKeys {
  authPrivateJwk: JWK;
  credentialPrivateJwk: JWK;
  legacySecret: string;
}

async function es256(kid: string): Promise<JWK> {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg: "ES256", use: "sig" };
}

export async function generateLocalKeys(): Promise<LocalKeys> {
  const random = crypto.getRandomValues(new Uint8Array(32));
  return {
    authPrivateJwk: await es256(`local-auth-${crypto.randomUUID().slice(0, 8)}`),
    credentialPrivateJwk: await es256(`local-credential-${crypto.randomUUID().slice(0, 8)}`),
    legacySecret: Buffer.from(random).toString("base64url"),
  };
}

/** Keys persisted under the stack home so dev tokens and .dev.vars survive restarts. */
export async function loadOrCreateLocalKeys(file: string): Promise<LocalKeys> {
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as LocalKeys;
  const keys = await generateLocalKeys();
  writeFileSync(file, JSON.stringify(keys, null, 2), { mode: 0o600 });
  return keys;
}

export function publicJwk(privateJwk: JWK): JWK {
  const { d: _private, ...rest } = privateJwk;
  return rest;
}

/** What the gateway serves at /auth/v1/.well-known/jwks.json. */
export function publishedJwks(keys: LocalKeys): { keys: JWK[] } {
  return { keys: [publicJwk(keys.authPrivateJwk), publicJwk(keys.credentialPrivateJwk)] };
}

/** What PostgREST verifies tokens against: the published keys plus the legacy secret. */
export function postgrestJwks(keys: LocalKeys): { keys: JWK[] } {
  const oct: JWK = { kty: "oct", k: Buffer.from(keys.legacySecret).toString("base64url"), alg: "HS256" };
  return { keys: [...publishedJwks(keys).keys, oct] };
}

/** A legacy-style anon key (HS256 JWT, role anon), like the one Supabase's CLI prints. */
export async function anonKey(keys: LocalKeys): Promise<string> {
  return new SignJWT({ role: "anon" })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer("supabase-local")
    .setIssuedAt()
    .setExpirationTime("10y")
    .sign(new TextEncoder().encode(keys.legacySecret));
}
