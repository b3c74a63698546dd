// Leftovers of a run that was killed before it could stop its children (kill -9, a closed
// terminal): throwaway instances are named run-<pid>-<id>, so any whose pid is gone is
// stopped and removed at the next start.
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { killStale } from "./processes.ts";

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops what an earlier, killed run left running on a data directory. */
export async function stopLeftovers(dataDir: string): Promise<void> {
  const postmaster = join(dataDir, "postmaster.pid");
  if (existsSync(postmaster)) await killStale(Number(readFileSync(postmaster, "utf8").split("\n")[0]), "postgres");
  const postgrest = `${dataDir}.postgrest.pid`;
  if (existsSync(postgrest)) await killStale(Number(readFileSync(postgrest, "utf8")), "postgrest");
}

export async function sweepAbandonedInstances(instancesDir: string): Promise<void> {
  for (const entry of readdirSync(instancesDir)) {
    const match = /^run-(\d+)-[0-9a-f]+$/.exec(entry);
    if (!match || isAlive(Number(match[1]))) continue;
    const dataDir = join(instancesDir, entry);
    await stopLeftovers(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
    for (const suffix of [".postgrest.pid", ".owner"]) rmSync(`${dataDir}${suffix}`, { force: true });
  }
}

/** Removes the data directories named `<prefix>*` other than `keep` (and what still runs on them). */
export async function removeOutdated(dir: string, prefix: string, keep: string): Promise<void> {
  for (const entry of readdirSync(dir)) {
    if (!entry.startsWith(prefix) || entry === keep || entry.endsWith(".pid") || entry.endsWith(".owner")) continue;
    const dataDir = join(dir, entry);
    await stopLeftovers(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
    for (const suffix of [".postgrest.pid", ".owner"]) rmSync(`${dataDir}${suffix}`, { force: true });
  }
}
