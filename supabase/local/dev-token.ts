// `npm run -s dev:token -- <alice|bob|user-uuid> [--ttl seconds]`: prints a bearer token the
// local stack accepts, signed with the local auth key (created on first use).
import { join } from "node:path";
import { parseArgs } from "node:util";
import { accessTokenClaims, SEEDED_USERS, signAccessToken } from "./auth-tokens.ts";
import { loadOrCreateLocalKeys } from "./keys.ts";
import { ensureStackHome } from "./postgres.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const { positionals, values } = parseArgs({ allowPositionals: true, options: { ttl: { type: "string", default: "86400" } } });
const who = positionals[0] ?? "alice";
const seeded = SEEDED_USERS[who as keyof typeof SEEDED_USERS];
const userId = seeded?.id ?? (UUID.test(who) ? who : undefined);
const ttl = Number(values.ttl);

if (!userId || !Number.isInteger(ttl) || ttl <= 0) {
  console.error(`usage: npm run -s dev:token -- <${Object.keys(SEEDED_USERS).join("|")}|user-uuid> [--ttl seconds]`);
  process.exit(2);
}
const keys = await loadOrCreateLocalKeys(join(ensureStackHome(), "keys.json"));
const claims = accessTokenClaims(userId, { exp: Math.floor(Date.now() / 1000) + ttl, ...(seeded ? { email: seeded.email } : {}) });
console.log(await signAccessToken(keys, claims));
