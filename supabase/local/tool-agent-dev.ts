// What the local Tool Agent needs beyond the agent Worker's settings: its secret key (kept in the
// stack home, so encrypted remote keys stay readable across restarts), API keys issued straight
// into the local database (a fresh stack has no admin to ask), and the seeded tools, registered
// through the Tool Agent's own API as any admin would.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Scope } from "../../functions/tool-agent/app-env.ts";
import { hashApiKey, newApiKey } from "../../functions/tool-agent/auth/api-keys.ts";
import { seedToolRequests } from "../../functions/tool-agent/seed-tools/seed-tools.ts";
import { withSuperuser } from "./postgres.ts";

/** The Tool Agent's extra settings, as an env file beside the generated one. */
/** The Tool Agent's local settings; `corsOrigins` are the pages allowed to call it (the playground's origin). */
export function writeToolAgentEnvFile(home: string, corsOrigins: readonly string[] = []): string {
  const secretFile = join(home, "tool-agent-secret-key");
  if (!existsSync(secretFile)) {
    writeFileSync(secretFile, Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64"), { mode: 0o600 });
  }
  const file = join(home, "tool-agent.dev.env");
  writeFileSync(
    file,
    `# Written by \`npm run dev\`. Regenerated on every start.\nTOOL_AGENT_SECRET_KEY=${readFileSync(secretFile, "utf8").trim()}\nTOOL_AGENT_CORS_ORIGINS=${corsOrigins.join(",")}\n`,
    {
      mode: 0o600,
    },
  );
  return file;
}

/** A new API key with `scopes`, stored (hashed) in the local database; answers the key itself. */
export async function issueToolKey(postgresPort: number, name: string, scopes: readonly Scope[]): Promise<string> {
  const issued = await newApiKey();
  await withSuperuser(postgresPort, (db) =>
    db.query("insert into tool_agent.api_keys (name, key_hash, key_prefix, scopes) values ($1, $2, $3, $4)", [
      name,
      issued.hash,
      issued.prefix,
      scopes,
    ]),
  );
  return issued.key;
}

/**
 * The dev admin key, kept in the stack home so the printed key survives restarts; issued again
 * when the database no longer has it (a reset, or new migrations).
 */
export async function devAdminKey(home: string, postgresPort: number): Promise<string> {
  const file = join(home, "tool-agent-admin-key");
  if (existsSync(file)) {
    const key = readFileSync(file, "utf8").trim();
    const hash = await hashApiKey(key);
    const found = await withSuperuser(postgresPort, (db) =>
      db.query("select 1 from tool_agent.api_keys where key_hash = $1 and revoked_at is null", [hash]),
    );
    if (found.rowCount) return key;
  }
  const key = await issueToolKey(postgresPort, "dev admin (npm run dev)", ["admin"]);
  writeFileSync(file, key, { mode: 0o600 });
  return key;
}

const REQUEST_MS = 10_000;

/** Registers each seeded tool that is not registered yet; answers the ids it registered. */
export async function registerSeedTools(toolAgentUrl: string, adminKey: string): Promise<string[]> {
  const registered: string[] = [];
  for (const request of seedToolRequests()) {
    const headers = { authorization: `Bearer ${adminKey}`, "content-type": "application/json" };
    const existing = await fetch(`${toolAgentUrl}/tools/${request.tool_id}`, { headers, signal: AbortSignal.timeout(REQUEST_MS) });
    await existing.body?.cancel();
    if (existing.status === 200) continue;
    const response = await fetch(`${toolAgentUrl}/tools`, {
      method: "POST",
      headers,
      body: JSON.stringify(request),
      signal: AbortSignal.timeout(REQUEST_MS),
    });
    if (response.status !== 201)
      throw new Error(`registering seed tool ${request.tool_id} answered ${response.status}: ${await response.text()}`);
    registered.push(String(request.tool_id));
  }
  return registered;
}
