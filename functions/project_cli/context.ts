// What a handler may use: the database as the calling user, and who that user is. Handlers
// never see a token; the client carries the controlled credential.
import type { SupabaseClient } from "@supabase/supabase-js";

export interface CliContext {
  db: SupabaseClient;
  userId: string;
}
