// Small helpers for the child processes of the stack: spawn, wait until ready, stop cleanly.
import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";

export interface Child {
  name: string;
  process: ChildProcess;
  /** The last lines the process wrote, for error messages. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * A child process's environment. `wrangler types` declares the Worker's settings as required
 * keys of NodeJS.ProcessEnv, which is untrue for our Node processes; this is the one place
 * that says so.
 */
export function childEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  return env as NodeJS.ProcessEnv;
}

export type ChildOptions = Omit<SpawnOptions, "env"> & { env?: Record<string, string | undefined> };

export function startChild(name: string, command: string, args: string[], options: ChildOptions): Child {
  const child = spawn(command, args, { ...options, env: options.env && childEnv(options.env), stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    if (lines.length > 40) lines.splice(0, lines.length - 40);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    name,
    process: child,
    output: () => lines.join("\n"),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      // SIGINT is Postgres' "fast shutdown"; PostgREST exits on it too.
      child.kill("SIGINT");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Polls `probe` until it resolves true; fails with the child's output if it exits first. */
export async function waitUntilReady(child: Child, probe: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null) {
      throw new Error(`${child.name} exited with code ${child.process.exitCode}:\n${child.output()}`);
    }
    // The probe may reach another server on the same port; only our live child counts.
    if ((await probe().catch(() => false)) && child.process.exitCode === null) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  await child.stop();
  throw new Error(`${child.name} was not ready within ${timeoutMs} ms:\n${child.output()}`);
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * A free port is free only until someone takes it: between freePort() and the server's own bind,
 * another process on the machine (other tests' servers, their outgoing connections) may get it.
 * `start` picks its ports itself; a start that fails on a taken address is tried again.
 */
export async function retryOnTakenPort<T>(start: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (error) {
      if (attempt >= attempts || !(error instanceof Error) || !error.message.includes("Address already in use")) throw error;
    }
  }
}

/** Kills a process left behind by an earlier run that was killed before it could clean up. */
export async function killStale(pid: number, expectedCommand: string): Promise<void> {
  let cmdline: string;
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return; // not running
  }
  if (!cmdline.includes(expectedCommand)) return; // the pid was reused by something else
  process.kill(pid, "SIGINT");
  for (let i = 0; i < 200; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  process.kill(pid, "SIGKILL");
}

/** All descendants of `pid` (Linux /proc), e.g. the workerd processes under wrangler. */
export function descendantsOf(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Field 4 of /proc/<pid>/stat is the parent pid; the command name (field 2) may hold spaces.
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // exited while we looked
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const [child, ppid] of parentOf) {
      if (ppid !== parent) continue;
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** Waits for the given processes to exit, then kills what is still there. */
export async function awaitExit(pids: number[], timeoutMs = 5_000): Promise<void> {
  const running = () => pids.filter((pid) => existsSync(`/proc/${pid}`));
  const deadline = Date.now() + timeoutMs;
  while (running().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  for (const pid of running()) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone meanwhile
    }
  }
}
