// Real PostgREST 12 (platform-binaries.ts says which binary), configured the way a
// Supabase project configures it: authenticator login, anon fallback, JWT audience check.
import { platformBinaries } from "./platform-binaries.ts";
import { type Child, startChild, waitUntilReady } from "./processes.ts";

export const AUTHENTICATOR_PASSWORD = "authenticator-local-only";

export interface PostgrestOptions {
  postgresPort: number;
  port: number;
  adminPort: number;
  /** JSON Web Key Set (or a >= 32 character secret) PostgREST verifies tokens with. */
  jwtSecret: string;
}

export async function startPostgrest(options: PostgrestOptions): Promise<Child> {
  const child = startChild("postgrest", platformBinaries().postgrestBinary, [], {
    // Only what PostgREST needs: none of this process's environment leaks into it.
    env: {
      PGRST_DB_URI: `postgres://authenticator:${AUTHENTICATOR_PASSWORD}@127.0.0.1:${options.postgresPort}/postgres`,
      // `tool_agent` is served too, to its own role only (migration 20261124000600).
      PGRST_DB_SCHEMAS: "public,tool_agent",
      PGRST_DB_ANON_ROLE: "anon",
      PGRST_JWT_SECRET: options.jwtSecret,
      PGRST_JWT_AUD: "authenticated",
      PGRST_SERVER_HOST: "127.0.0.1",
      PGRST_SERVER_PORT: String(options.port),
      PGRST_ADMIN_SERVER_PORT: String(options.adminPort),
      PGRST_LOG_LEVEL: "error",
    },
  });
  await waitUntilReady(child, async () => {
    const response = await fetch(`http://127.0.0.1:${options.adminPort}/ready`);
    return response.ok;
  });
  return child;
}
