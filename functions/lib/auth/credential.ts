// The controlled credential: a short-lived JWT the Worker mints for one verified user, so
// that every database call runs as that user and Row Level Security does the isolation.
// It is handed to supabase-js only; it never enters tool arguments, model context, logs,
// responses or stored rows.
import { importJWK, SignJWT } from "jose";
import { CREDENTIAL_TTL_BOUNDS, type DataPlaneSettings } from "../data-plane-settings.ts";

export const CREDENTIAL_ISSUER = "edge-agent";

export type CredentialSigner = { alg: "ES256"; kid: string; key: CryptoKey } | { alg: "HS256"; key: Uint8Array };

export interface ControlledCredential {
  token: string;
  /** Unix seconds. */
  expiresAt: number;
  jti: string;
}

export async function importCredentialSigner(credential: DataPlaneSettings["credential"]): Promise<CredentialSigner> {
  if (credential.signingJwk) {
    const key = await importJWK(credential.signingJwk, "ES256");
    if (!(key instanceof CryptoKey)) throw new Error("CREDENTIAL_SIGNING_JWK did not import as a private key");
    return { alg: "ES256", kid: credential.signingJwk.kid, key };
  }
  if (credential.legacySecret) return { alg: "HS256", key: new TextEncoder().encode(credential.legacySecret) };
  throw new Error("no credential signing key configured");
}

export function assertCredentialTtl(ttlSeconds: number): void {
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < CREDENTIAL_TTL_BOUNDS.min || ttlSeconds > CREDENTIAL_TTL_BOUNDS.max) {
    throw new RangeError(
      `credential TTL must be a whole number of seconds in ${CREDENTIAL_TTL_BOUNDS.min}..${CREDENTIAL_TTL_BOUNDS.max}, got ${ttlSeconds}`,
    );
  }
}

export interface CredentialOptions {
  ttlSeconds: number;
  audience: string;
  /**
   * The database role PostgREST switches to: `authenticated` (an app user, the default) or a
   * service's own role, e.g. the Tool Agent's `tool_agent_service`.
   */
  role?: string;
  now?: number;
}

export async function mintCredential(subject: string, signer: CredentialSigner, options: CredentialOptions): Promise<ControlledCredential> {
  assertCredentialTtl(options.ttlSeconds);
  const issuedAt = options.now ?? Math.floor(Date.now() / 1000);
  const expiresAt = issuedAt + options.ttlSeconds;
  const jti = crypto.randomUUID();
  const header = signer.alg === "ES256" ? { alg: "ES256", kid: signer.kid, typ: "JWT" } : { alg: "HS256", typ: "JWT" };
  const token = await new SignJWT({ role: options.role ?? "authenticated" })
    .setProtectedHeader(header)
    .setSubject(subject)
    .setAudience(options.audience)
    .setIssuer(CREDENTIAL_ISSUER)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .setJti(jti)
    .sign(signer.key);
  return { token, expiresAt, jti };
}

/**
 * Hands out a valid credential for one user, minting a new one when the current one is
 * within `refreshBeforeSeconds` of expiry. supabase-js calls it before every request, so a
 * run that outlives one credential keeps working.
 */
export function credentialSource(
  subject: string,
  signer: CredentialSigner,
  options: Omit<CredentialOptions, "now"> & { refreshBeforeSeconds?: number },
): () => Promise<string> {
  const margin = options.refreshBeforeSeconds ?? 30;
  // The pending mint is shared: supabase-js asks for a token when the client is built and
  // again for the first request, in the same tick, and one credential serves both.
  let current: Promise<ControlledCredential> | undefined;
  let expiresAt = 0;
  return async () => {
    const now = Math.floor(Date.now() / 1000);
    if (!current || (expiresAt > 0 && expiresAt - now <= margin)) {
      const minting = mintCredential(subject, signer, options);
      current = minting;
      expiresAt = 0;
      minting.then(
        (credential) => {
          expiresAt = credential.expiresAt;
        },
        () => {
          if (current === minting) current = undefined; // a failed mint is not kept
        },
      );
    }
    return (await current).token;
  };
}
