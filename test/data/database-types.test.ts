// The committed database types are what the migrations build: regenerate with `npm run db:types`.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, test } from "vitest";
import { readCatalogs, renderDatabaseTypes } from "../../supabase/local/database-types.ts";
import { superuser } from "../support/users.ts";

test("functions/lib/database.types.ts matches the schema (else run npm run db:types)", async () => {
  const generated = renderDatabaseTypes(await superuser(readCatalogs));
  const committed = readFileSync(resolve(import.meta.dirname, "../../functions/lib/database.types.ts"), "utf8");
  expect(committed).toBe(generated);
});
