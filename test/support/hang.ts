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

export function hang(plane: DataPlane, target: HangTarget): void {
  for (const pid of processesOf(plane, target)) process.kill(pid, "SIGSTOP");
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
