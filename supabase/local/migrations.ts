// Reads supabase/migrations in order and applies them, recording each one the way the
// Supabase CLI does (supabase_migrations.schema_migrations), so a local database can tell
// which migrations it has.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type pg from "pg";
import { migrationsDir } from "./paths.ts";

export interface Migration {
  version: string;
  name: string;
  sql: string;
}

const FILE_NAME = /^(\d{14})_([a-z0-9_]+)\.sql$/;

export function readMigrations(dir = migrationsDir): Migration[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith(".sql"))
    .sort()
    .map((file) => {
      const match = FILE_NAME.exec(file);
      if (!match) throw new Error(`migration file name must be <14-digit timestamp>_<snake_case>.sql: ${file}`);
      return { version: match[1]!, name: match[2]!, sql: readFileSync(join(dir, file), "utf8") };
    });
}

export async function applyMigrations(client: pg.Client, migrations: Migration[]): Promise<void> {
  await client.query(`
    create schema if not exists supabase_migrations;
    create table if not exists supabase_migrations.schema_migrations (
      version text primary key, name text not null, applied_at timestamptz not null default now()
    );`);
  for (const migration of migrations) {
    await client.query("begin");
    try {
      await client.query(migration.sql);
      await client.query("insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)", [
        migration.version,
        migration.name,
      ]);
      await client.query("commit");
    } catch (error) {
      await client.query("rollback");
      throw new Error(`migration ${migration.version}_${migration.name} failed: ${(error as Error).message}`);
    }
  }
}
