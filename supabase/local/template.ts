// A prepared data directory (bootstrap + every migration applied) per distinct set of SQL
// files. Building one takes a couple of seconds; copying it takes a fraction of that, so
// every later start, in dev and in tests, begins from a copy.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { applyMigrations, readMigrations } from "./migrations.ts";
import { bootstrapFile } from "./paths.ts";
import { ensureStackHome, initCluster, startPostgres } from "./postgres.ts";
import { freePort } from "./processes.ts";

export function templateKey(): string {
  const hash = createHash("sha256");
  hash.update(readFileSync(bootstrapFile));
  for (const migration of readMigrations()) hash.update(`${migration.version}\0${migration.name}\0${migration.sql}\0`);
  return hash.digest("hex").slice(0, 16);
}

export interface Template {
  key: string;
  dataDir: string;
  built: boolean;
}

export async function ensureTemplate(): Promise<Template> {
  const key = templateKey();
  const templatesDir = join(ensureStackHome(), "templates");
  const dataDir = join(templatesDir, key);
  if (existsSync(join(dataDir, "PG_VERSION"))) return { key, dataDir, built: false };

  mkdirSync(templatesDir, { recursive: true, mode: 0o755 });
  const building = join(templatesDir, `.building-${key}-${process.pid}`);
  rmSync(building, { recursive: true, force: true });
  initCluster(building);
  const postgres = await startPostgres(building, await freePort());
  try {
    const client = await postgres.connect();
    try {
      await client.query(readFileSync(bootstrapFile, "utf8"));
      await applyMigrations(client, readMigrations());
    } finally {
      await client.end();
    }
  } catch (error) {
    await postgres.stop();
    rmSync(building, { recursive: true, force: true });
    throw error;
  }
  await postgres.stop();
  try {
    renameSync(building, dataDir);
  } catch {
    rmSync(building, { recursive: true, force: true }); // built concurrently by another process
  }
  return { key, dataDir, built: true };
}
