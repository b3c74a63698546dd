// Test identities: fresh users in auth.users (so tests never share rows), the seeded demo
// users, and supabase-js clients acting as a user through a minted controlled credential.
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import pg from "pg";
import { inject } from "vitest";
import { importCredentialSigner, mintCredential } from "../../functions/lib/auth/credential.ts";
import { SEEDED_USERS } from "../../supabase/local/auth-tokens.ts";

export const SEEDED = { alice: SEEDED_USERS.alice.id, bob: SEEDED_USERS.bob.id } as const;

const stack = () => inject("localStack");

/** A superuser connection: test fixtures and out-of-band checks only, never product code. */
export async function superuser<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const { port, password } = stack().postgres;
  const client = new pg.Client({ host: "127.0.0.1", port, user: "postgres", password, database: "postgres" });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createUser(label: string): Promise<string> {
  const id = crypto.randomUUID();
  await superuser((db) =>
    db.query("insert into auth.users (id, email, phone) values ($1, $2, $3)", [
      id,
      `${label}-${id.slice(0, 8)}@example.test`,
      `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`,
    ]),
  );
  return id;
}

export async function credentialFor(userId: string, options: { ttlSeconds?: number; now?: number; audience?: string; role?: string } = {}) {
  const signer = await importCredentialSigner({ ttlSeconds: 300, signingJwk: stack().keys.credentialPrivateJwk as never });
  return mintCredential(userId, signer, {
    ttlSeconds: options.ttlSeconds ?? 300,
    audience: options.audience ?? "authenticated",
    ...(options.role ? { role: options.role } : {}),
    ...(options.now !== undefined ? { now: options.now } : {}),
  });
}

/** supabase-js as `userId`, exactly as the Worker builds it: anon key + controlled credential. */
export async function clientAs(userId: string): Promise<SupabaseClient> {
  const { token } = await credentialFor(userId);
  return createClient(stack().supabaseUrl, stack().anonKey, { accessToken: async () => token });
}

export function anonClient(): SupabaseClient {
  return createClient(stack().supabaseUrl, stack().anonKey, { auth: { persistSession: false } });
}
