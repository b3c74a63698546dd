// What caps sustained load on this machine, from what one load level measured. Two ceilings:
//   - workerd's main thread runs every isolate (the Worker, each run's Durable Object, the R2
//     and trace emulations), one at a time: it cannot finish more runs a second than a second
//     holds of its own time per run (on a core, or blocked in a call such as fsync; not the
//     time it waited for a core, which other processes took);
//   - the cores: every process of the stack shares them, so runs/s <= cores x 1000 / (CPU per
//     run across all processes).
// The lower one is the bound the measured rate is compared with.

export interface LoadLevel {
  runs: number;
  wallMs: number;
  /** Share of the main thread's sampled states spent idle (waiting for events). */
  mainIdleShare: number;
  /** Time the main thread waited for a core, ms. */
  mainQueuedMs: number;
  /** CPU of every process of the stack over the level, ms. */
  cpuMs: number;
  cores: number;
}

export interface LoadCeiling {
  measuredPerSecond: number;
  /** The main thread's own time per run, ms, and the runs/s it allows. */
  mainThreadMsPerRun: number;
  mainThreadPerSecond: number;
  cpuMsPerRun: number;
  coresPerSecond: number;
  /** The lower ceiling, and the measured rate's share of it. */
  boundPerSecond: number;
  shareOfBound: number;
}

export function loadCeiling(level: LoadLevel): LoadCeiling {
  const runs = Math.max(1, level.runs);
  const mainThreadMsPerRun = Math.max(0, level.wallMs * (1 - level.mainIdleShare) - level.mainQueuedMs) / runs;
  const cpuMsPerRun = level.cpuMs / runs;
  const mainThreadPerSecond = 1000 / mainThreadMsPerRun;
  const coresPerSecond = (level.cores * 1000) / cpuMsPerRun;
  const measuredPerSecond = (level.runs * 1000) / level.wallMs;
  const boundPerSecond = Math.min(mainThreadPerSecond, coresPerSecond);
  return {
    measuredPerSecond,
    mainThreadMsPerRun,
    mainThreadPerSecond,
    cpuMsPerRun,
    coresPerSecond,
    boundPerSecond,
    shareOfBound: measuredPerSecond / boundPerSecond,
  };
}
