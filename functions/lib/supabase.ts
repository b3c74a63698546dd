// supabase-js clients. The user client carries the controlled credential (through the
// accessToken callback, so a fresh one is minted when needed); the anon client carries
// nothing but the project's anon key and can only reach what anon may.
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import type { Settings } from "./config.ts";

const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false } as const;

export function createUserClient(
  settings: Pick<Settings, "supabaseUrl" | "supabaseAnonKey">,
  accessToken: () => Promise<string>,
): SupabaseClient {
  // With accessToken set, supabase-js keeps no session of its own and asks for the token on
  // every request.
  return createClient(settings.supabaseUrl, settings.supabaseAnonKey, { accessToken });
}

export function createAnonClient(settings: Settings): SupabaseClient {
  return createClient(settings.supabaseUrl, settings.supabaseAnonKey, { auth: noSession });
}
