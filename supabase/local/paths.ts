// Where the local data plane keeps its binaries, prepared templates and data directories.
import { tmpdir, userInfo } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const supabaseDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const migrationsDir = join(supabaseDir, "migrations");
export const seedFile = join(supabaseDir, "seed.sql");
export const bootstrapFile = join(supabaseDir, "local", "platform-bootstrap.sql");

/**
 * Home of everything the stack writes. It lives outside the repository on purpose: when run
 * as root, Postgres runs as the `postgres` user, which must be able to reach its binaries and
 * data directory, and a clone may sit in a directory only root can enter (mode 0700).
 * Override with LOCAL_STACK_HOME.
 */
export function stackHome(): string {
  return process.env.LOCAL_STACK_HOME ?? join(tmpdir(), `edge-agent-local-${userInfo().uid}`);
}
