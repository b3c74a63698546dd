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

/** Linux x86-64 system calls a workerd thread is seen blocked in. */
const SYSCALLS: Record<string, string> = {
  "74": "fsync",
  "75": "fdatasync",
  "232": "epoll_wait (idle: nothing to do)",
  "281": "epoll_pwait (idle: nothing to do)",
  "202": "futex (waiting for another thread)",
  "18": "pwrite64",
  "17": "pread64",
  "257": "openat",
  "0": "read",
  "1": "write",
  "20": "writev",
};

/**
 * Samples what one thread is doing every `everyMs`: running, or blocked in which system call
 * (/proc/<pid>/task/<tid>/syscall). Off-CPU time spent in fsync on the thread that runs every
 * isolate is time no request can use, though no CPU counter shows it.
 */
export function sampleThreadStates(pid: number, tid: number, everyMs = 2) {
  const counts = new Map<string, number>();
  const timer = setInterval(() => {
    let state: string;
    try {
      const syscall = readFileSync(`/proc/${pid}/task/${tid}/syscall`, "utf8").trim();
      state = syscall.startsWith("running")
        ? "running on a core"
        : (SYSCALLS[syscall.split(" ")[0]!] ?? `syscall ${syscall.split(" ")[0]}`);
    } catch {
      return;
    }
    counts.set(state, (counts.get(state) ?? 0) + 1);
  }, everyMs);
  return {
    /** Share of samples per state, largest first. */
    stop(): Array<[string, number]> {
      clearInterval(timer);
      const total = [...counts.values()].reduce((a, b) => a + b, 0);
      return [...counts].sort((a, b) => b[1] - a[1]).map(([state, n]) => [state, n / Math.max(1, total)]);
    },
  };
}

/** On-CPU and waiting-for-a-core time of one thread so far, in ms (/proc/<pid>/task/<tid>/schedstat). */
export function threadSchedMs(pid: number, tid: number): { runMs: number; queuedMs: number } {
  try {
    const [run, queued] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").trim().split(" ").map(Number);
    return { runMs: (run ?? 0) / 1e6, queuedMs: (queued ?? 0) / 1e6 };
  } catch {
    return { runMs: 0, queuedMs: 0 };
  }
}
