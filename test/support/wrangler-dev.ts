// The agent Worker on `wrangler dev` (workerd), for end-to-end tests and benchmarks that must
// run the Worker the way `npm run dev` does: its own throwaway data plane (or one the caller
// passes), free ports, its own persistence directory (R2, Durable Objects), and extra vars on
// top of the generated settings (e.g. a model base URL pointing at a scripted server).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { accessTokenClaims, SEEDED_USERS, signAccessToken } from "../../supabase/local/auth-tokens.ts";
import { type DataPlane, startDataPlane } from "../../supabase/local/data-plane.ts";
import { writeDevEnvFile } from "../../supabase/local/dev-env.ts";
import { generateLocalKeys, type LocalKeys } from "../../supabase/local/keys.ts";
import { awaitExit, childEnv, descendantsOf, freePort, retryOnTakenPort } from "../../supabase/local/processes.ts";
import { repoRoot, wranglerDevArgs } from "../../supabase/local/wrangler-dev-args.ts";

export interface WranglerDev {
  url: string;
  plane: DataPlane;
  keys: LocalKeys;
  /** A bearer token for a seeded user (default alice), valid one hour. */
  token(user?: keyof typeof SEEDED_USERS | string): Promise<string>;
  /** What wrangler printed so far (for failure messages and log assertions). */
  output(): string;
  stop(): Promise<void>;
}

export interface WranglerDevOptions {
  /** Extra Worker vars, written after the generated ones (later lines win). */
  vars?: Record<string, string>;
  /** Reuse a running data plane instead of starting a throwaway one (not stopped by stop()). */
  plane?: { plane: DataPlane; keys: LocalKeys };
  readyTimeoutMs?: number;
  /** Another Worker's wrangler config (e.g. functions/tool-agent/wrangler.toml); the agent's by default. */
  config?: string;
  /** More `wrangler dev` arguments, e.g. --test-scheduled. */
  args?: string[];
  /**
   * The dev registry through which Workers on this machine find each other's service bindings.
   * Each test stack gets its own (a fresh directory by default), so Workers of the same name
   * that other tests run at the same time are never bound by mistake.
   */
  registry?: string;
  /** When /health's answer means ready (200 by default; a misconfigured Worker answers 500). */
  readyStatus?: number;
  /**
   * Where the Worker's local state lives (R2, Durable Objects, Workflows, Queues). A fresh
   * directory removed by stop() by default; a given one is kept, so a second `wrangler dev`
   * can start on the first one's state, as after a restart.
   */
  stateDir?: string;
  /** The port to serve on (a free one by default), for a test that must know the URL before the Worker starts. */
  port?: number;
}

/** On free ports, tried again on new ones when another process took one first (unless the port was given). */
export function startWranglerDev(options: WranglerDevOptions = {}): Promise<WranglerDev> {
  return options.port === undefined ? retryOnTakenPort(() => startOnce(options)) : startOnce(options);
}

async function startOnce(options: WranglerDevOptions): Promise<WranglerDev> {
  const home = mkdtempSync(join(tmpdir(), "edge-agent-wrangler-"));
  const keys = options.plane?.keys ?? (await generateLocalKeys());
  const plane = options.plane?.plane ?? (await startDataPlane({ keys }));
  const ownsPlane = !options.plane;
  const envFile = writeDevEnvFile(home, { supabaseUrl: plane.url, anonKey: plane.anonKey, keys });
  const extra = join(home, "extra.env");
  writeFileSync(
    extra,
    Object.entries(options.vars ?? {})
      .map(([k, v]) => `${k}=${v}\n`)
      .join(""),
    { mode: 0o600 },
  );

  const [port, inspector] = [options.port ?? (await freePort()), await freePort()];
  let output = "";
  const wrangler = spawn(
    process.execPath,
    wranglerDevArgs({
      port,
      config: options.config,
      inspectorPort: inspector,
      persistTo: options.stateDir ?? join(home, "state"),
      envFiles: [envFile, extra],
      extra: options.args,
    }),
    {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "pipe"],
      env: childEnv({ ...process.env, WRANGLER_SEND_METRICS: "false", WRANGLER_REGISTRY_PATH: options.registry ?? join(home, "registry") }),
    },
  );
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  wrangler.stdout.on("data", keep);
  wrangler.stderr.on("data", keep);

  const stop = async () => {
    if (wrangler.exitCode === null && wrangler.pid) {
      const workerd = descendantsOf(wrangler.pid);
      wrangler.kill("SIGINT");
      const killer = setTimeout(() => wrangler.kill("SIGKILL"), 10_000);
      await new Promise((r) => wrangler.once("exit", r));
      clearTimeout(killer);
      await awaitExit(workerd);
    }
    if (ownsPlane) await plane.stop();
    rmSync(home, { recursive: true, force: true });
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  for (;;) {
    if (wrangler.exitCode !== null) {
      await stop();
      throw new Error(`wrangler dev exited early:\n${output}`);
    }
    if (
      await fetch(`${url}/health`).then(
        (r) => r.status === (options.readyStatus ?? 200),
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`wrangler dev not ready in time:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    url,
    plane,
    keys,
    token: (user = "alice") => {
      const id = user in SEEDED_USERS ? SEEDED_USERS[user as keyof typeof SEEDED_USERS].id : user;
      return signAccessToken(keys, accessTokenClaims(id));
    },
    output: () => output,
    stop,
  };
}
