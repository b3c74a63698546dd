// Starts the whole local data plane: Postgres (from a prepared template), PostgREST and the
// gateway. Used by `npm run dev`, `npm run db:start` and the test suite's global setup.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { startGateway } from "./gateway.ts";
import { anonKey, type LocalKeys, postgrestJwks, publishedJwks } from "./keys.ts";
import { seedFile } from "./paths.ts";
import { platformBinaries } from "./platform-binaries.ts";
import { copyCluster, ensureStackHome, type PostgresHandle, startPostgres } from "./postgres.ts";
import { startPostgrest } from "./postgrest.ts";
import { type Child, freePort } from "./processes.ts";
import { isAlive, removeOutdated, stopLeftovers, sweepAbandonedInstances } from "./stale.ts";
import { ensureTemplate } from "./template.ts";

export interface DataPlaneOptions {
  keys: LocalKeys;
  /**
   * A named instance keeps its data across restarts while the migrations are unchanged
   * (dev); without a name the instance is a throwaway copy deleted on stop (tests).
   */
  instance?: { name: string; reset?: boolean };
  gatewayPort?: number;
  postgresPort?: number;
}

export interface DataPlane {
  /** Base URL for supabase-js (PostgREST at /rest/v1, JWKS at /auth/v1/.well-known/jwks.json). */
  url: string;
  anonKey: string;
  postgresPort: number;
  timings: { templateMs: number; templateBuilt: boolean; postgresMs: number; postgrestMs: number; totalMs: number };
  /** Stops only Postgres, leaving PostgREST and the gateway up: "the database is down". */
  stopPostgres(): Promise<void>;
  startPostgres(): Promise<void>;
  /** The running server processes, for tests that hang one (SIGSTOP) instead of stopping it. */
  processIds(): { postgres: number | undefined; postgrest: number | undefined };
  stop(): Promise<void>;
}

export async function startDataPlane(options: DataPlaneOptions): Promise<DataPlane> {
  const began = performance.now();
  platformBinaries(); // refuses early, saying what to install, where the binaries cannot run
  const template = await ensureTemplate();
  const templateMs = performance.now() - began;

  const instancesDir = join(ensureStackHome(), "instances");
  mkdirSync(instancesDir, { recursive: true, mode: 0o755 });
  const named = options.instance;
  const dataDir = named
    ? join(instancesDir, `${named.name}-${template.key}`)
    : join(instancesDir, `run-${process.pid}-${crypto.randomUUID().slice(0, 8)}`);
  await sweepAbandonedInstances(instancesDir);
  const ownerFile = `${dataDir}.owner`;
  if (named) {
    const owner = existsSync(ownerFile) ? Number(readFileSync(ownerFile, "utf8")) : undefined;
    if (owner && owner !== process.pid && isAlive(owner)) {
      throw new Error(`the "${named.name}" stack is already running (pid ${owner}); stop it first, or use another LOCAL_STACK_HOME`);
    }
  }
  await stopLeftovers(dataDir);
  if (named?.reset) rmSync(dataDir, { recursive: true, force: true });
  const fresh = !existsSync(join(dataDir, "PG_VERSION"));
  if (fresh) {
    rmSync(dataDir, { recursive: true, force: true });
    copyCluster(template.dataDir, dataDir);
    // The same named instance for an older migration set cannot be started any more.
    if (named) await removeOutdated(instancesDir, `${named.name}-`, basename(dataDir));
  }

  if (named) writeFileSync(ownerFile, String(process.pid));
  const postgresPort = options.postgresPort ?? (await freePort());
  let postgres: PostgresHandle = await startPostgres(dataDir, postgresPort);
  if (fresh) await postgres.exec(readFileSync(seedFile, "utf8"));
  const postgresMs = performance.now() - began - templateMs;

  const postgrestPidFile = `${dataDir}.postgrest.pid`;
  const postgrestPort = await freePort();
  let postgrest: Child;
  try {
    postgrest = await startPostgrest({
      postgresPort,
      port: postgrestPort,
      adminPort: await freePort(),
      jwtSecret: JSON.stringify(postgrestJwks(options.keys)),
    });
  } catch (error) {
    await postgres.stop();
    throw error;
  }
  writeFileSync(postgrestPidFile, String(postgrest.process.pid));
  const postgrestMs = performance.now() - began - templateMs - postgresMs;

  const gatewayPort = options.gatewayPort ?? (await freePort());
  const gateway = await startGateway({ port: gatewayPort, postgrestPort, jwks: publishedJwks(options.keys), keys: options.keys }).catch(
    async (error: Error) => {
      await postgrest.stop();
      await postgres.stop();
      throw new Error(`gateway could not listen on 127.0.0.1:${gatewayPort}: ${error.message}`);
    },
  );

  // Last resort if the process exits without stop(): immediate shutdown of both servers.
  const killOnExit = () => {
    for (const [child, signal] of [
      [postgrest, "SIGTERM"],
      [postgres.child, "SIGQUIT"],
    ] as const) {
      if (child.process.exitCode === null) child.process.kill(signal);
    }
  };
  process.once("exit", killOnExit);

  let stopped = false;
  return {
    url: `http://127.0.0.1:${gatewayPort}`,
    anonKey: await anonKey(options.keys),
    postgresPort,
    timings: { templateMs, templateBuilt: template.built, postgresMs, postgrestMs, totalMs: performance.now() - began },
    stopPostgres: () => postgres.stop(),
    async startPostgres() {
      if (postgres.child.process.exitCode === null && postgres.child.process.signalCode === null) return; // already up
      postgres = await startPostgres(dataDir, postgresPort);
    },
    processIds: () => ({ postgres: postgres.child.process.pid, postgrest: postgrest.process.pid }),
    async stop() {
      if (stopped) return;
      stopped = true;
      process.off("exit", killOnExit);
      await gateway.stop();
      await postgrest.stop();
      await postgres.stop();
      rmSync(postgrestPidFile, { force: true });
      rmSync(ownerFile, { force: true });
      if (!named) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
