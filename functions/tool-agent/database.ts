// The Tool Agent's database handle: supabase-js on the `tool_agent` schema, carrying a
// short-lived credential for the `tool_agent_service` role (minted here, like the chat agent's
// per-user one). That role reaches the Tool Agent's tables and nothing else; the service key is
// never used.
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { credentialSource } from "../lib/auth/credential.ts";
import { boundedFetch } from "../lib/bounded-fetch.ts";
import type { DataPlaneSettings } from "../lib/data-plane-settings.ts";
import type { Database } from "../lib/database.types.ts";
import { signerFor } from "../lib/user-database.ts";

export type ToolDatabase = SupabaseClient<Database, "tool_agent">;

export const TOOL_AGENT_ROLE = "tool_agent_service";
/** The credential's subject: who the database sees acting. */
export const TOOL_AGENT_SUBJECT = "tool-agent";

const clients = new WeakMap<DataPlaneSettings, Promise<ToolDatabase>>();

async function createToolDatabase(settings: DataPlaneSettings): Promise<ToolDatabase> {
  const accessToken = credentialSource(TOOL_AGENT_SUBJECT, await signerFor(settings), {
    ttlSeconds: settings.credential.ttlSeconds,
    audience: settings.auth.audience,
    role: TOOL_AGENT_ROLE,
  });
  return createClient<Database, "tool_agent">(settings.supabaseUrl, settings.supabaseAnonKey, {
    accessToken,
    db: { schema: "tool_agent", retry: false },
    global: { fetch: boundedFetch(settings.dataPlane.timeoutMs) },
  });
}

/** One client per settings object (per isolate): the credential renews itself before expiry. */
export function toolDatabase(settings: DataPlaneSettings): Promise<ToolDatabase> {
  let client = clients.get(settings);
  if (!client) {
    client = createToolDatabase(settings);
    clients.set(settings, client);
  }
  return client;
}
