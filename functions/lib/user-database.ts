// The per-request database handle: supabase-js acting as one verified user through a
// controlled credential minted here. Handlers receive this client, never a token.
import { type CredentialSigner, credentialSource, importCredentialSigner } from "./auth/credential.ts";
import type { DataPlaneSettings } from "./data-plane-settings.ts";
import { createUserClient, type DatabaseClient } from "./supabase.ts";

// Importing the key is the only costly step; do it once per settings object (per isolate).
const signers = new WeakMap<DataPlaneSettings, Promise<CredentialSigner>>();

export function signerFor(settings: DataPlaneSettings): Promise<CredentialSigner> {
  let signer = signers.get(settings);
  if (!signer) {
    signer = importCredentialSigner(settings.credential);
    signers.set(settings, signer);
  }
  return signer;
}

export async function createUserDatabase(settings: DataPlaneSettings, userId: string): Promise<DatabaseClient> {
  const nextCredential = credentialSource(userId, await signerFor(settings), {
    ttlSeconds: settings.credential.ttlSeconds,
    audience: settings.auth.audience,
  });
  return createUserClient(settings, nextCredential);
}
