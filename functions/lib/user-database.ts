// The per-request database handle: supabase-js acting as one verified user through a
// controlled credential minted here. Handlers receive this client, never a token.
import type { SupabaseClient } from "@supabase/supabase-js";
import { type CredentialSigner, credentialSource, importCredentialSigner } from "./auth/credential.ts";
import type { Settings } from "./config.ts";
import { createUserClient } from "./supabase.ts";

// Importing the key is the only costly step; do it once per settings object (per isolate).
const signers = new WeakMap<Settings, Promise<CredentialSigner>>();

function signerFor(settings: Settings): Promise<CredentialSigner> {
  let signer = signers.get(settings);
  if (!signer) {
    signer = importCredentialSigner(settings.credential);
    signers.set(settings, signer);
  }
  return signer;
}

export async function createUserDatabase(settings: Settings, userId: string): Promise<SupabaseClient> {
  const nextCredential = credentialSource(userId, await signerFor(settings), {
    ttlSeconds: settings.credential.ttlSeconds,
    audience: settings.auth.audience,
  });
  return createUserClient(settings, nextCredential);
}
