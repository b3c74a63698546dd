// What a handler may use: the database as the calling user, and who that user is. Handlers
// never see a token; the client carries the controlled credential. The client knows the schema
// (functions/lib/database.types.ts), so every row a handler reads is typed by its table.
import type { DatabaseClient } from "../lib/supabase.ts";

/**
 * The Tool Agent's registry, as this user (the agent Worker's service binding). Absent when the
 * deployment has none. Answers the HTTP status and the parsed JSON body; throws only when the
 * registry did not answer (a deadline, a lost connection).
 */
export interface ToolRegistry {
  request(path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
}

export interface CliContext {
  db: DatabaseClient;
  userId: string;
  tools?: ToolRegistry;
}
