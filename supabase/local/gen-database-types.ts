// `npm run db:types`: regenerates functions/lib/database.types.ts from what the migrations
// build, on a throwaway local data plane (the way `supabase gen types typescript --local` does).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { startDataPlane } from "./data-plane.ts";
import { readCatalogs, renderDatabaseTypes } from "./database-types.ts";
import { generateLocalKeys } from "./keys.ts";
import { supabaseDir } from "./paths.ts";
import { SUPERUSER_PASSWORD } from "./postgres.ts";

export const databaseTypesFile = join(supabaseDir, "..", "functions", "lib", "database.types.ts");

const plane = await startDataPlane({ keys: await generateLocalKeys() });
const client = new pg.Client({
  host: "127.0.0.1",
  port: plane.postgresPort,
  user: "postgres",
  password: SUPERUSER_PASSWORD,
  database: "postgres",
});
try {
  await client.connect();
  writeFileSync(databaseTypesFile, renderDatabaseTypes(await readCatalogs(client)));
  console.log(`wrote ${databaseTypesFile}`);
} finally {
  await client.end().catch(() => {});
  await plane.stop();
}
