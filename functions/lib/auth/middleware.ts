// Hono middleware: a request under it has a verified user, or gets a 401 JSON answer.
import { createMiddleware } from "hono/factory";
import type { DataPlaneSettings } from "../data-plane-settings.ts";
import { errorBody } from "../errors.ts";
import { log } from "../log.ts";
import { type AuthFailureReason, bearerToken, type VerifiedUser, verifyAccessToken } from "./verify-access-token.ts";

/** What requireUser reads (the settings, the request id) and sets (the user); any Worker's request env that has these fits. */
export interface UserRequestEnv {
  Variables: {
    requestId: string;
    settings: Pick<DataPlaneSettings, "auth" | "credential">;
    user: VerifiedUser;
  };
}

const MESSAGES: Record<AuthFailureReason, string> = {
  missing_token: "an Authorization: Bearer <access token> header is required",
  malformed_token: "the bearer token is not a well-formed JWT",
  unsupported_algorithm: "the bearer token is signed with an algorithm this service does not accept",
  token_expired: "the access token has expired; refresh the session and retry",
  invalid_signature: "the access token signature does not verify",
  invalid_audience: "the access token was issued for another audience",
  invalid_issuer: "the access token was issued by another issuer",
  invalid_claims: "the access token does not identify an authenticated user",
  keys_unavailable: "the signing keys could not be fetched; retry shortly",
  credential_not_accepted: "this is a data-plane credential, not an app access token; sign in to get an access token",
};

export const requireUser = createMiddleware<UserRequestEnv>(async (c, next) => {
  const { settings } = c.var;
  const credentialKid = settings.credential.signingJwk?.kid;
  const result = await verifyAccessToken(
    bearerToken(c.req.header("authorization")),
    settings.auth,
    credentialKid ? { kid: credentialKid } : {},
  );
  if (!result.ok) {
    log.warn("auth.rejected", { reason: result.reason, path: c.req.path, request_id: c.var.requestId });
    if (result.reason === "keys_unavailable") {
      return c.json(errorBody("UPSTREAM_UNAVAILABLE", MESSAGES.keys_unavailable, { retryable: true }), 503);
    }
    // RFC 6750 §3.1: a request without credentials gets a bare challenge, a bad token an error.
    c.header(
      "WWW-Authenticate",
      result.reason === "missing_token"
        ? 'Bearer realm="api"'
        : `Bearer realm="api", error="invalid_token", error_description="${result.reason}"`,
    );
    return c.json(errorBody("UNAUTHENTICATED", MESSAGES[result.reason], { reason: result.reason }), 401);
  }
  c.set("user", result.user);
  await next();
});
