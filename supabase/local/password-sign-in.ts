// Stands in for Supabase Auth's password sign-in (`POST /auth/v1/token?grant_type=password`) on
// the local stack, for the seeded users only, so the playground can sign in the way an app signs
// in to Supabase. The answer has the shape Supabase Auth gives (access_token, token_type,
// expires_in, expires_at, user) and so does a refusal (400 invalid_grant). There is no refresh
// token: a local session simply signs in again after an hour.
import { accessTokenClaims, SEEDED_USERS, signAccessToken } from "./auth-tokens.ts";
import type { LocalKeys } from "./keys.ts";

/** Every seeded user's password on the local stack (never on a hosted project). */
export const LOCAL_PASSWORD = "password";
const SESSION_SECONDS = 3_600;

export type SignInAnswer =
  | { status: 200; body: Record<string, unknown> }
  | { status: 400; body: { error: string; error_description: string } };

const refused = (description: string): SignInAnswer => ({ status: 400, body: { error: "invalid_grant", error_description: description } });

export async function passwordSignIn(keys: Pick<LocalKeys, "authPrivateJwk">, body: unknown): Promise<SignInAnswer> {
  const { email, password } = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  if (typeof email !== "string" || typeof password !== "string") return refused("email and password are required");
  const user = Object.values(SEEDED_USERS).find((u) => u.email === email.trim().toLowerCase());
  if (!user || password !== LOCAL_PASSWORD) return refused("Invalid login credentials");
  const expiresAt = Math.floor(Date.now() / 1000) + SESSION_SECONDS;
  const token = await signAccessToken(keys, accessTokenClaims(user.id, { email: user.email, exp: expiresAt }));
  return {
    status: 200,
    body: {
      access_token: token,
      token_type: "bearer",
      expires_in: SESSION_SECONDS,
      expires_at: expiresAt,
      user: { id: user.id, email: user.email, aud: "authenticated", role: "authenticated" },
    },
  };
}
