// `npm run -s dev:tool-key -- [search] [invoke] [admin] [create]`: issues a Tool Agent API key with those
// scopes (search and invoke by default) into the running `npm run dev` database and prints it.
import { parseArgs } from "node:util";
import type { Scope } from "../../functions/tool-agent/app-env.ts";
import { issueToolKey } from "./tool-agent-dev.ts";

const SCOPES: readonly Scope[] = ["search", "invoke", "admin", "create"];
const { positionals } = parseArgs({ allowPositionals: true });
const scopes = positionals.length ? positionals : ["search", "invoke"];
const unknown = scopes.filter((scope) => !SCOPES.includes(scope as Scope));
if (unknown.length) {
  console.error(`usage: npm run -s dev:tool-key -- [${SCOPES.join("] [")}]  (unknown: ${unknown.join(", ")})`);
  process.exit(2);
}
const port = Number(process.env.LOCAL_POSTGRES_PORT ?? 54322);
try {
  console.log(await issueToolKey(port, `dev ${scopes.join("+")} (dev:tool-key)`, scopes as Scope[]));
} catch (error) {
  console.error(
    `dev:tool-key: the local database on 127.0.0.1:${port} did not take the key (is \`npm run dev\` running?): ${(error as Error).message}`,
  );
  process.exit(1);
}
