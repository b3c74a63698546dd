// Verifies the app's bearer token: a Supabase Auth access token signed either with one of the
// project's signing keys (published as a JWKS) or with the legacy HS256 JWT secret.
// Every failure maps to a stable reason; none of them echoes the token. A token verified once
// is taken as verified for up to a minute, never past its expiry (verified-tokens.ts).
//
// The Worker's own controlled credential (credential.ts) is for the data plane only. It may be
// signed with a key the same JWKS publishes (PostgREST must trust it) or with the very secret
// legacy app tokens use, so a valid signature proves nothing about which kind a token is: its
// issuer and key id do. Both are checked on every token, whatever AUTH_ISSUER says.
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, errors, type JWTPayload, jwtVerify } from "jose";
import type { DataPlaneSettings } from "../data-plane-settings.ts";
import { CREDENTIAL_ISSUER } from "./credential.ts";
import { type VerifiedTokens, verifiedTokens } from "./verified-tokens.ts";

export type AuthFailureReason =
  | "missing_token"
  | "malformed_token"
  | "unsupported_algorithm"
  | "token_expired"
  | "invalid_signature"
  | "invalid_audience"
  | "invalid_issuer"
  | "invalid_claims"
  | "keys_unavailable"
  | "credential_not_accepted";

export interface VerifiedUser {
  userId: string;
  /** Only app users are verified: anon and service keys are refused (invalid_claims). */
  role: "authenticated";
  email?: string;
}

export type VerifyResult = { ok: true; user: VerifiedUser } | { ok: false; reason: AuthFailureReason };

const ASYMMETRIC_ALGORITHMS = ["ES256", "RS256", "EdDSA"];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// One remote key set per URL for the life of the isolate: jose caches the keys, refetches
// on an unknown kid (rate-limited by the cooldown) and after cacheMaxAge.
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

function keySet(url: string, timeoutMs: number) {
  const key = `${timeoutMs} ${url}`;
  let set = keySets.get(key);
  if (!set) {
    set = createRemoteJWKSet(new URL(url), { cacheMaxAge: 10 * 60_000, cooldownDuration: 30_000, timeoutDuration: timeoutMs });
    keySets.set(key, set);
  }
  return set;
}

// Tokens already verified, per auth settings (one object per isolate: settings are parsed once
// per Env), so a token is never taken as verified under settings that did not verify it.
const verifiedBySettings = new WeakMap<DataPlaneSettings["auth"], VerifiedTokens>();

function verifiedUnder(auth: DataPlaneSettings["auth"]): VerifiedTokens {
  let tokens = verifiedBySettings.get(auth);
  if (!tokens) {
    tokens = verifiedTokens();
    verifiedBySettings.set(auth, tokens);
  }
  return tokens;
}

/** Extracts the token from an Authorization header value ("Bearer <token>"). */
export function bearerToken(header: string | undefined | null): string | undefined {
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header ?? "");
  return match?.[1];
}

function reasonFor(error: unknown): AuthFailureReason {
  if (error instanceof errors.JWTExpired) return "token_expired";
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "aud") return "invalid_audience";
    if (error.claim === "iss") return "invalid_issuer";
    return "invalid_claims";
  }
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey) {
    return "invalid_signature";
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) return "unsupported_algorithm";
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) return "keys_unavailable";
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) return "malformed_token";
  // A failed fetch of the key set surfaces as a plain TypeError/Error from fetch.
  return "keys_unavailable";
}

function userFrom(payload: JWTPayload): VerifyResult {
  const role = typeof payload.role === "string" ? payload.role : undefined;
  if (!payload.sub || !UUID.test(payload.sub) || role !== "authenticated") return { ok: false, reason: "invalid_claims" };
  const email = typeof payload.email === "string" && payload.email !== "" ? payload.email : undefined;
  return { ok: true, user: { userId: payload.sub, role, ...(email ? { email } : {}) } };
}

/** What tells a controlled credential apart from an app token, whoever signed it. */
export interface CredentialMarks {
  /** The kid of the credential signing key (CREDENTIAL_SIGNING_JWK), when one is configured. */
  kid?: string;
}

export async function verifyAccessToken(
  token: string | undefined,
  auth: DataPlaneSettings["auth"],
  credential: CredentialMarks = {},
): Promise<VerifyResult> {
  if (!token) return { ok: false, reason: "missing_token" };
  // The credential's key id is part of the key: whether a token is a credential depends on it.
  const verified = verifiedUnder(auth);
  const cacheKey = `${credential.kid ?? ""} ${token}`;
  const known = verified.get(cacheKey);
  if (known) return { ok: true, user: known };
  const accepted = (payload: JWTPayload): VerifyResult => {
    const result = userFrom(payload);
    // exp is a required claim: jwtVerify has checked that it is there and in the future.
    if (result.ok && typeof payload.exp === "number") verified.add(cacheKey, result.user, payload.exp);
    return result;
  };
  let alg: string | undefined;
  let kid: unknown;
  let issuer: unknown;
  try {
    ({ alg, kid } = decodeProtectedHeader(token));
    issuer = decodeJwt(token).iss;
  } catch {
    return { ok: false, reason: "malformed_token" };
  }
  if (token.split(".").length !== 3) return { ok: false, reason: "malformed_token" };
  // Refused before any signature check: a credential is never an app token, valid or not.
  if (issuer === CREDENTIAL_ISSUER || (credential.kid !== undefined && kid === credential.kid))
    return { ok: false, reason: "credential_not_accepted" };
  const options = { audience: auth.audience, ...(auth.issuer ? { issuer: auth.issuer } : {}), requiredClaims: ["exp", "sub"] };
  try {
    if (alg === "HS256") {
      if (!auth.legacySecret) return { ok: false, reason: "unsupported_algorithm" };
      const { payload } = await jwtVerify(token, new TextEncoder().encode(auth.legacySecret), {
        ...options,
        algorithms: ["HS256"],
      });
      return accepted(payload);
    }
    if (alg && ASYMMETRIC_ALGORITHMS.includes(alg)) {
      const { payload } = await jwtVerify(token, keySet(auth.jwksUrl, auth.keysTimeoutMs), {
        ...options,
        algorithms: ASYMMETRIC_ALGORITHMS,
      });
      return accepted(payload);
    }
    return { ok: false, reason: "unsupported_algorithm" };
  } catch (error) {
    return { ok: false, reason: reasonFor(error) };
  }
}
