// How long each run held the Worker's isolate, from a V8 profile of sequential runs: the
// sampler only samples while the isolate is held (waits on I/O leave no samples), so the
// samples count the isolate's time, which is what a Worker is billed as CPU time in
// production. Each sample stands for the sampler's real spacing, not the interval asked for:
// in workerd it falls behind (asked for 100 us, it samples every ~190 us while JS runs), so
// samples x interval read half a pure-JS stage's measured time.
// On `wrangler dev` two other parties run in that same isolate and are taken out to get the
// run's own server time: the run's Durable Object (its code, and the native work of creating
// and committing it that lands on the route's line calling it), which production runs on the
// object's machine, and the offline demo model, which stands in for the model.
import type { CpuProfile } from "./cdp.ts";
import { HUB_OBJECT, profileStacks, stageOf } from "./profile-attribution.ts";

export interface RunWindow {
  /** Microseconds, on the profile's monotonic clock. */
  fromUs: number;
  toUs: number;
}

export interface IsolateTime {
  /** Time the isolate was held inside the window (busy samples x spacing), microseconds. */
  heldUs: number;
  /** Of which the run's Durable Object. */
  hubObjectUs: number;
  /** Of which the model double. */
  modelUs: number;
}

export interface ProfiledBundle {
  scriptId: string;
  moduleAt: (line: number) => string;
  /** Whether a line of the bundle (1-based) calls the run's Durable Object (a stub method). */
  callsHub: (line: number) => boolean;
}

const MODEL_STAGE = "model (offline demo)";

const isIdle = (profile: CpuProfile, byId: Map<number, CpuProfile["nodes"][number]>, i: number) =>
  byId.get(profile.samples[i]!)?.callFrame.functionName === "(idle)";

/**
 * What one sample stands for: the median gap between two samples taken while the isolate was
 * held. Gaps that span a wait (the isolate released, so no samples) are far longer and sit
 * above the median as long as most samples come from runs of busy ones.
 */
export function sampleSpacingUs(profile: CpuProfile): number {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const gaps: number[] = [];
  for (let i = 1; i < profile.samples.length; i++)
    if (!isIdle(profile, byId, i) && !isIdle(profile, byId, i - 1)) gaps.push(profile.timeDeltas[i] ?? 0);
  if (gaps.length === 0) return 0;
  gaps.sort((a, b) => a - b);
  return gaps[Math.floor((gaps.length - 1) / 2)]!;
}

/**
 * The isolate's time in each window (windows may come in any order and must not overlap); each
 * sample counts `spacingUs` (sampleSpacingUs).
 */
export function isolateTimePerWindow(
  profile: CpuProfile,
  bundle: ProfiledBundle,
  windows: readonly RunWindow[],
  spacingUs: number,
): IsolateTime[] {
  const { byId, stackOf } = profileStacks(profile, bundle);
  // A frame's self samples that sit on a line calling the hub are the object's native work (on
  // wrangler dev, creating its database and committing, synchronously under that call).
  const hubShare = new Map<number, number>();
  const hubShareOf = (id: number) => {
    let share = hubShare.get(id);
    if (share === undefined) {
      const ticks = byId.get(id)?.positionTicks ?? [];
      const total = ticks.reduce((sum, t) => sum + t.ticks, 0);
      const onHub = ticks.filter((t) => bundle.callsHub(t.line)).reduce((sum, t) => sum + t.ticks, 0);
      share = total === 0 ? 0 : onHub / total;
      hubShare.set(id, share);
    }
    return share;
  };
  const order = windows.map((w, i) => ({ ...w, i })).sort((a, b) => a.fromUs - b.fromUs);
  const result: IsolateTime[] = windows.map(() => ({ heldUs: 0, hubObjectUs: 0, modelUs: 0 }));
  let w = 0;
  let time = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i] ?? 0;
    while (w < order.length && time >= order[w]!.toUs) w++;
    const window = order[w];
    if (!window || time < window.fromUs) continue;
    const node = byId.get(profile.samples[i]!)!;
    const name = node.callFrame.functionName;
    if (name === "(idle)") continue;
    const into = result[window.i]!;
    into.heldUs += spacingUs;
    if (name === "(program)" || name === "(garbage collector)") continue;
    const stage = stageOf(stackOf(node.id));
    if (stage.startsWith(HUB_OBJECT)) into.hubObjectUs += spacingUs;
    else if (stage === MODEL_STAGE) into.modelUs += spacingUs;
    else if (node.callFrame.scriptId === bundle.scriptId) into.hubObjectUs += spacingUs * hubShareOf(node.id);
  }
  return result;
}

/** Lines of the bundle (1-based) in the run route's module that call a method of the hub's stub. */
export function hubCallLines(bundleSource: string, moduleAt: (line: number) => string): Set<number> {
  const lines = new Set<number>();
  bundleSource.split("\n").forEach((text, index) => {
    if (/\bhub\.\w+\(/.test(text) && moduleAt(index).endsWith("routes/runs.ts")) lines.add(index + 1);
  });
  return lines;
}
