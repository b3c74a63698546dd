// A prepared data directory (bootstrap + every migration applied) per distinct set of SQL
// files. Building one takes a couple of seconds; copying it takes a fraction of that, so
// every later start, in dev and in tests, begins from a copy.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
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

// Planes started together in one process share one build instead of racing each other.
const building = new Map<string, Promise<Template>>();

export function ensureTemplate(): Promise<Template> {
  const key = templateKey();
  let pending = building.get(key);
  if (!pending) {
    pending = buildTemplate(key).finally(() => building.delete(key));
    building.set(key, pending);
  }
  return pending;
}

async function buildTemplate(key: string): Promise<Template> {
  const templatesDir = join(ensureStackHome(), "templates");
  const dataDir = join(templatesDir, key);
  if (existsSync(join(dataDir, "PG_VERSION"))) return { key, dataDir, built: false };

  mkdirSync(templatesDir, { recursive: true, mode: 0o755 });
  const workDir = join(templatesDir, `.building-${key}-${process.pid}-${crypto.randomUUID().slice(0, 8)}`);
  initCluster(workDir);
  const postgres = await startPostgres(workDir, await freePort());
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
    rmSync(workDir, { recursive: true, force: true });
    throw error;
  }
  await postgres.stop();
  try {
    renameSync(workDir, dataDir);
  } catch {
    rmSync(workDir, { recursive: true, force: true }); // another process built it meanwhile
  }
  // Templates of older migration sets are never used again. (Nothing runs on a template.)
  for (const entry of readdirSync(templatesDir)) {
    if (entry !== key && !entry.startsWith(".building-")) rmSync(join(templatesDir, entry), { recursive: true, force: true });
  }
  return { key, dataDir, built: true };
}
