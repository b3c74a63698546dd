// What a handler may use: the database as the calling user, and who that user is. Handlers
// never see a token; the client carries the controlled credential. The client knows the schema
// (functions/lib/database.types.ts), so every row a handler reads is typed by its table.
import type { DatabaseClient } from "../lib/supabase.ts";

export interface CliContext {
  db: DatabaseClient;
  userId: string;
}
