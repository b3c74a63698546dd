// API keys of external callers. A key is `ta_` + 32 random bytes (base64url) and is shown once;
// only its SHA-256 is stored. A verified key is remembered for a short while per isolate, so a
// busy caller costs one lookup per minute, not one per request; revoking a key therefore takes
// effect within KEY_CACHE_MS.
import type { Scope } from "../app-env.ts";
import type { ToolDatabase } from "../database.ts";
import { StoreError } from "../registry/tool-store.ts";
import { LookupBudget } from "./lookup-budget.ts";

export const KEY_CACHE_MS = 60_000;
const KEY_FORMAT = /^ta_[A-Za-z0-9_-]{43}$/;
const MAX_CACHED = 1_000;

export interface IssuedKey {
  key: string;
  hash: string;
  prefix: string;
}

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

export async function hashApiKey(key: string): Promise<string> {
  return hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key)));
}

export async function newApiKey(): Promise<IssuedKey> {
  const random = crypto.getRandomValues(new Uint8Array(32));
  const key = `ta_${btoa(String.fromCharCode(...random))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "")}`;
  return { key, hash: await hashApiKey(key), prefix: key.slice(0, 8) };
}

export interface VerifiedKey {
  keyId: string;
  scopes: Scope[];
}

const cache = new Map<string, { verified: VerifiedKey | null; until: number }>();
const unseenLookups = new LookupBudget();

/** Too many keys this isolate has not seen, too fast: answer "slow down" without a lookup. */
export const THROTTLED = "throttled";

/** The key's id and scopes; null for a key that is unknown, revoked or malformed; THROTTLED. */
export async function verifyApiKey(db: ToolDatabase, key: string, now = Date.now()): Promise<VerifiedKey | null | typeof THROTTLED> {
  if (!KEY_FORMAT.test(key)) return null;
  const hash = await hashApiKey(key);
  const cached = cache.get(hash);
  if (cached && cached.until > now) return cached.verified;
  if (!unseenLookups.take(now)) return THROTTLED;
  let answer: Awaited<ReturnType<typeof lookup>>;
  try {
    answer = await lookup(db, hash);
  } catch (error) {
    throw new StoreError("UPSTREAM_UNAVAILABLE", `checking the API key failed: ${(error as Error).name}`);
  }
  if (answer.error) throw new StoreError("UPSTREAM_UNAVAILABLE", "checking the API key failed: the data plane did not answer");
  const verified = answer.data ? { keyId: answer.data.key_id, scopes: answer.data.scopes.filter(isScope) } : null;
  if (verified) unseenLookups.refund();
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
  cache.set(hash, { verified, until: now + KEY_CACHE_MS });
  return verified;
}

const lookup = (db: ToolDatabase, hash: string) =>
  db.from("api_keys").select("key_id, scopes").eq("key_hash", hash).is("revoked_at", null).maybeSingle();

const SCOPES: readonly string[] = ["search", "invoke", "admin", "create"] satisfies Scope[];
const isScope = (scope: string): scope is Scope => SCOPES.includes(scope);

/** admin may do everything; otherwise the scope must be granted. */
export const hasScope = (scopes: readonly Scope[], needed: Scope) => scopes.includes("admin") || scopes.includes(needed);
