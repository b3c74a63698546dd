// Postgres refuses to run as root. When we are root, it runs as an unprivileged `postgres`
// user (created if the machine has none); otherwise it runs as the current user.
import { execFileSync } from "node:child_process";
import { userInfo } from "node:os";

export interface RunAs {
  uid: number;
  gid: number;
}

export function isRoot(): boolean {
  return userInfo().uid === 0;
}

function lookupIds(name: string): RunAs | undefined {
  try {
    const uid = Number(execFileSync("id", ["-u", name], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", name], { encoding: "utf8" }).trim());
    return { uid, gid };
  } catch {
    return undefined;
  }
}

/** The identity Postgres processes run under, or undefined to run as ourselves. */
export function postgresRunAs(): RunAs | undefined {
  if (!isRoot()) return undefined;
  const existing = lookupIds("postgres");
  if (existing) return existing;
  execFileSync("useradd", ["--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", "postgres"]);
  const created = lookupIds("postgres");
  if (!created) throw new Error("could not create the 'postgres' OS user that Postgres runs as");
  return created;
}
