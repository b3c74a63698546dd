// The Worker settings that point `wrangler dev` at the local data plane, written as an env
// file under the stack home (never into the repository).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LocalKeys } from "./keys.ts";

export function writeDevEnvFile(
  home: string,
  values: { supabaseUrl: string; anonKey: string; keys: LocalKeys; toolAgentUrl?: string },
): string {
  const file = join(home, "worker.dev.env");
  const lines = [
    "# Written by `npm run dev` for the local stack. Regenerated on every start.",
    `SUPABASE_URL=${values.supabaseUrl}`,
    `SUPABASE_ANON_KEY=${values.anonKey}`,
    `AUTH_JWT_SECRET=${values.keys.legacySecret}`,
    `CREDENTIAL_SIGNING_JWK=${JSON.stringify(values.keys.credentialPrivateJwk)}`,
    // The playground's Tool Agent tab (/playground/) calls the local Tool Agent.
    ...(values.toolAgentUrl ? [`PLAYGROUND_TOOL_AGENT_URL=${values.toolAgentUrl}`] : []),
  ];
  writeFileSync(file, `${lines.join("\n")}\n`, { mode: 0o600 });
  return file;
}
