// App tokens this isolate has already verified, by their exact text. A client sends the same
// access token with every request for the token's lifetime (an hour on Supabase), and checking
// its signature again each time is the same work for the same answer: about 0.1-0.2 ms of CPU
// per request (an ES256 verify and the token's parsing).
//
// An entry lasts until the token expires or for at most `maxAgeMs`, whichever comes first, so
// a signing key taken out of the key set stops being honoured at most that much later than it
// would be without this (and jose already keeps the key set for ten minutes). Only successes are
// kept: a token that failed is checked in full again next time, and a caller cannot fill the
// cache without valid tokens. It holds at most `maxEntries` tokens, the oldest going first.
import type { VerifiedUser } from "./verify-access-token.ts";

export interface VerifiedTokens {
  /** The user a still-valid entry verified, or undefined. */
  get(key: string): VerifiedUser | undefined;
  /** Keeps a verified token until `expiresAtSeconds` (its exp) or the cache's max age. */
  add(key: string, user: VerifiedUser, expiresAtSeconds: number): void;
}

const VERIFIED_TOKEN_MAX_AGE_MS = 60_000;
const VERIFIED_TOKEN_MAX_ENTRIES = 500;

export function verifiedTokens(options: { maxAgeMs?: number; maxEntries?: number; now?: () => number } = {}): VerifiedTokens {
  const maxAgeMs = options.maxAgeMs ?? VERIFIED_TOKEN_MAX_AGE_MS;
  const maxEntries = options.maxEntries ?? VERIFIED_TOKEN_MAX_ENTRIES;
  const now = options.now ?? Date.now;
  // A Map iterates in insertion order: its first key is the oldest entry.
  const entries = new Map<string, { user: VerifiedUser; until: number }>();
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (now() < entry.until) return entry.user;
      entries.delete(key);
      return undefined;
    },
    add(key, user, expiresAtSeconds) {
      const until = Math.min(expiresAtSeconds * 1000, now() + maxAgeMs);
      if (!(until > now())) return;
      entries.delete(key);
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(key, { user, until });
    },
  };
}
