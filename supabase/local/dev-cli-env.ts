// `eval "$(npm run -s dev:cli-env -- alice)"`: environment for project-cli against the local
// stack, acting as a seeded user through a controlled credential minted exactly as the Worker
// mints it (local credential key, 10 minutes).
import { join } from "node:path";
import { importCredentialSigner, mintCredential } from "../../functions/lib/auth/credential.ts";
import { SEEDED_USERS } from "./auth-tokens.ts";
import { anonKey, loadOrCreateLocalKeys } from "./keys.ts";
import { ensureStackHome } from "./postgres.ts";

const who = process.argv[2] ?? "alice";
const user = SEEDED_USERS[who as keyof typeof SEEDED_USERS];
const userId = user?.id ?? (/^[0-9a-f-]{36}$/i.test(who) ? who : undefined);
if (!userId) {
  console.error(`usage: npm run -s dev:cli-env -- <${Object.keys(SEEDED_USERS).join("|")}|user-uuid>`);
  process.exit(2);
}
const keys = await loadOrCreateLocalKeys(join(ensureStackHome(), "keys.json"));
const signer = await importCredentialSigner({ ttlSeconds: 600, signingJwk: keys.credentialPrivateJwk as never });
const { token } = await mintCredential(userId, signer, { ttlSeconds: 600, audience: "authenticated" });
console.log(`export SUPABASE_URL=http://127.0.0.1:${process.env.LOCAL_GATEWAY_PORT ?? 54321}`);
console.log(`export SUPABASE_ANON_KEY=${await anonKey(keys)}`);
console.log(`export PROJECT_CLI_CREDENTIAL=${token}`);
