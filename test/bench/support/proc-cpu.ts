// CPU time of processes and of their threads, from Linux /proc: the ground truth the profiler's
// samples are checked against, and the evidence of what saturates under load.
import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** utime + stime of a /proc stat line, in milliseconds. */
function statCpuMs(stat: string): number {
  // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** CPU milliseconds a process has used so far (0 when it is gone). */
export function processCpuMs(pid: number): number {
  try {
    return statCpuMs(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return 0;
  }
}

/** CPU milliseconds per thread of a process, keyed "tid name". */
export function threadCpuMs(pid: number): Map<string, number> {
  const threads = new Map<string, number>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return threads;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      threads.set(`${tid} ${name}`, statCpuMs(stat));
    } catch {
      // the thread ended meanwhile
    }
  }
  return threads;
}

export function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
  } catch {
    return "";
  }
}

/** Total CPU of the machine (all cores, busy + idle) in milliseconds, from /proc/stat. */
export function machineCpuMs(): { busy: number; total: number } {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0]!;
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  const total = values.reduce((sum, v) => sum + v, 0);
  return { busy: ((total - idle) * 1000) / TICKS_PER_SECOND, total: (total * 1000) / TICKS_PER_SECOND };
}

export interface CpuGroup {
  name: string;
  pids: () => number[];
}

/** Snapshot the CPU of named process groups; `since` gives the deltas. */
export function cpuSnapshot(groups: readonly CpuGroup[]) {
  const taken = new Map(groups.map((group) => [group.name, group.pids().reduce((sum, pid) => sum + processCpuMs(pid), 0)]));
  const machine = machineCpuMs();
  const began = performance.now();
  return {
    /** CPU ms per group since the snapshot, plus the machine's busy share and wall time. */
    since() {
      const now = machineCpuMs();
      const wallMs = performance.now() - began;
      const byGroup = new Map(
        groups.map((group) => [group.name, group.pids().reduce((sum, pid) => sum + processCpuMs(pid), 0) - (taken.get(group.name) ?? 0)]),
      );
      return { byGroup, wallMs, machineBusyShare: (now.busy - machine.busy) / Math.max(1, now.total - machine.total) };
    },
  };
}
