// Who the page acts as: a bearer token, kept in this browser's localStorage. On the local stack
// it comes from signing in as a seeded user (the gateway's stand-in for Supabase Auth); anywhere
// else it is pasted. The claims are decoded only to show who is signed in and until when; the
// Worker verifies the token itself.

import { type Answer, requestJson } from "./http.ts";
import { isRecord } from "./values.ts";

const TOKEN_KEY = "playground.token";

export interface Session {
  token: string;
  subject: string;
  email?: string;
  expiresAt?: number;
}

/** The payload of a JWT, unverified, or undefined when it is not one. */
export function decodeClaims(token: string): Record<string, unknown> | undefined {
  const payload = token.split(".")[1];
  if (!payload) return undefined;
  try {
    const json = atob(
      payload
        .replace(/-/g, "+")
        .replace(/_/g, "/")
        .padEnd(Math.ceil(payload.length / 4) * 4, "="),
    );
    const claims: unknown = JSON.parse(new TextDecoder().decode(Uint8Array.from(json, (c) => c.charCodeAt(0))));
    return isRecord(claims) ? claims : undefined;
  } catch {
    return undefined;
  }
}

export function sessionOf(token: string): Session | undefined {
  const claims = decodeClaims(token.trim());
  if (!claims || typeof claims.sub !== "string") return undefined;
  return {
    token: token.trim(),
    subject: claims.sub,
    ...(typeof claims.email === "string" ? { email: claims.email } : {}),
    ...(typeof claims.exp === "number" ? { expiresAt: claims.exp } : {}),
  };
}

export function storedSession(): Session | undefined {
  const token = localStorage.getItem(TOKEN_KEY);
  const session = token ? sessionOf(token) : undefined;
  if (session?.expiresAt !== undefined && session.expiresAt * 1000 <= Date.now()) return undefined;
  return session;
}

export function keepSession(session: Session | undefined): void {
  if (session) localStorage.setItem(TOKEN_KEY, session.token);
  else localStorage.removeItem(TOKEN_KEY);
}

/** Supabase Auth's password grant (the local gateway serves it for the seeded users). */
export async function signIn(signInUrl: string, email: string, password: string): Promise<Answer<Session>> {
  const answer = await requestJson<unknown>(signInUrl, { body: { email, password } });
  if (!answer.ok) return answer;
  const token = isRecord(answer.body) && typeof answer.body.access_token === "string" ? answer.body.access_token : "";
  const session = sessionOf(token);
  return session
    ? { ok: true, status: answer.status, body: session }
    : { ok: false, status: answer.status, code: "INVALID_ANSWER", message: "the sign-in answer held no usable token" };
}
