// supabase-js clients. The user client carries the controlled credential (through the
// accessToken callback, so a fresh one is minted when needed); the anon client carries
// nothing but the project's anon key and can only reach what anon may.
// Both are bounded: each call has a deadline (boundedFetch, which also retries fast-failing
// reads inside it), and supabase-js's own retries of reads are off, since they wait up to
// 1+2+4 s, or a server's Retry-After, on top of any deadline; the callers decide what a
// failure means (a run error, a 503).
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { boundedFetch } from "./bounded-fetch.ts";
import type { Settings } from "./config.ts";

const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false } as const;

type ClientSettings = Pick<Settings, "supabaseUrl" | "supabaseAnonKey" | "dataPlane">;

const bounded = (settings: ClientSettings) => ({
  global: { fetch: boundedFetch(settings.dataPlane.timeoutMs) },
  db: { retry: false },
});

export function createUserClient(settings: ClientSettings, accessToken: () => Promise<string>): SupabaseClient {
  // With accessToken set, supabase-js keeps no session of its own and asks for the token on
  // every request.
  return createClient(settings.supabaseUrl, settings.supabaseAnonKey, { accessToken, ...bounded(settings) });
}

export function createAnonClient(settings: ClientSettings): SupabaseClient {
  return createClient(settings.supabaseUrl, settings.supabaseAnonKey, { auth: noSession, ...bounded(settings) });
}
