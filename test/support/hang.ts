// Hangs a data-plane server the way a real fault does: the process is stopped (SIGSTOP), so
// its sockets stay open and nothing answers, and resumed (SIGCONT) afterwards. Postgres is a
// family of processes (the postmaster and one backend per connection): all are paused.
import type { DataPlane } from "../../supabase/local/data-plane.ts";
import { descendantsOf } from "../../supabase/local/processes.ts";

export type HangTarget = "postgres" | "postgrest";

function processesOf(plane: DataPlane, target: HangTarget): number[] {
  const pid = plane.processIds()[target];
  if (pid === undefined) throw new Error(`${target} is not running`);
  return target === "postgres" ? [pid, ...descendantsOf(pid)] : [pid];
}

export async function hang(plane: DataPlane, target: HangTarget): Promise<void> {
  const pid = plane.processIds()[target];
  if (pid === undefined) throw new Error(`${target} is not running`);
  // The parent first, so it forks no new backend; then its children, looked up again until no
  // new one appears (a fork under way when the parent stopped still completes).
  process.kill(pid, "SIGSTOP");
  if (target !== "postgres") return;
  const stopped = new Set<number>();
  for (;;) {
    const fresh = descendantsOf(pid).filter((child) => !stopped.has(child));
    if (fresh.length === 0 && stopped.size > 0) return;
    for (const child of fresh) {
      process.kill(child, "SIGSTOP");
      stopped.add(child);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function resume(plane: DataPlane, target: HangTarget): void {
  // Children first would not matter for SIGCONT; resume everything that exists now.
  for (const pid of processesOf(plane, target)) {
    try {
      process.kill(pid, "SIGCONT");
    } catch {
      // exited meanwhile
    }
  }
}
