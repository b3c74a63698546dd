import { expect, test } from "vitest";
import type { CpuProfile } from "../../bench/support/cdp.ts";
import { hubCallLines, isolateTimePerWindow, sampleSpacingUs } from "../../bench/support/isolate-time.ts";

// A bundle of three modules: line 0 starts the route, line 10 the hub, line 20 the demo model.
const moduleAt = (line: number) =>
  line >= 20
    ? "functions/agent/runtime/demo-model.ts"
    : line >= 10
      ? "functions/agent/run-hub/run-hub.ts"
      : "functions/agent/routes/runs.ts";
const frame = (functionName: string, lineNumber = -1, scriptId = "bundle") => ({
  functionName,
  scriptId,
  url: "",
  lineNumber,
  columnNumber: 0,
});

/** Samples at the given times (us from 0), each on a node by name. */
function profileOf(
  samples: Array<[number, "idle" | "route" | "claim" | "model" | "program"]>,
  routeTicks = [{ line: 3, ticks: 1 }],
): CpuProfile {
  const ids = { root: 1, idle: 2, route: 3, claim: 4, model: 5, program: 6 } as const;
  const nodes: CpuProfile["nodes"] = [
    { id: 1, callFrame: frame("(root)", -1, "0"), children: [2, 3, 6] },
    { id: 2, callFrame: frame("(idle)", -1, "0") },
    { id: 3, callFrame: frame("", 2), children: [4, 5], positionTicks: routeTicks },
    { id: 4, callFrame: frame("claim", 12) },
    { id: 5, callFrame: frame("doStream", 22) },
    { id: 6, callFrame: frame("(program)", -1, "0") },
  ];
  let last = 0;
  return {
    nodes,
    startTime: 0,
    endTime: samples.at(-1)?.[0] ?? 0,
    samples: samples.map(([, name]) => ids[name]),
    timeDeltas: samples.map(([time]) => {
      const delta = time - last;
      last = time;
      return delta;
    }),
  };
}

test("a sample stands for the median gap between two busy samples; gaps across idle time do not count", () => {
  const profile = profileOf([
    [0, "route"],
    [200, "route"],
    [400, "claim"],
    [590, "model"],
    [5_000, "idle"],
    [90_000, "route"],
    [90_210, "route"],
  ]);
  // Busy-to-busy gaps: 200, 200, 190, 210 (the 85 ms one follows an idle sample).
  expect(sampleSpacingUs(profile)).toBe(200);
});

test("each window gets its busy samples; the hub object and the model double are told apart", () => {
  const profile = profileOf(
    [
      [100, "route"],
      [300, "claim"],
      [500, "model"],
      [700, "program"],
      [900, "idle"],
      [2_100, "route"],
      [2_300, "route"],
    ],
    // Half of the route's own samples sit on the line that calls the hub.
    [
      { line: 3, ticks: 1 },
      { line: 5, ticks: 1 },
    ],
  );
  const bundle = { scriptId: "bundle", moduleAt, callsHub: (line: number) => line === 3 };
  const [first, second, empty] = isolateTimePerWindow(
    profile,
    bundle,
    [
      { fromUs: 0, toUs: 1_000 },
      { fromUs: 2_000, toUs: 3_000 },
      { fromUs: 5_000, toUs: 6_000 },
    ],
    200,
  );
  expect(first).toEqual({ heldUs: 800, hubObjectUs: 200 + 100, modelUs: 200 });
  expect(second).toEqual({ heldUs: 400, hubObjectUs: 200, modelUs: 0 });
  expect(empty).toEqual({ heldUs: 0, hubObjectUs: 0, modelUs: 0 });
});

test("miniflare's Durable Object wrapper (wrangler dev only) counts as the hub object, with what it calls", () => {
  const profile = profileOf([[100, "route"]]);
  profile.nodes[0]!.children!.push(7);
  profile.nodes.push(
    { id: 7, callFrame: { ...frame("", 9, "5"), url: "file:///x/__mf_do_wrapper.js" }, children: [8] },
    { id: 8, callFrame: frame("exec", -1, "0") },
  );
  profile.samples.push(8, 7);
  profile.timeDeltas.push(100, 100);
  const bundle = { scriptId: "bundle", moduleAt, callsHub: () => false };
  const [time] = isolateTimePerWindow(profile, bundle, [{ fromUs: 0, toUs: 1_000 }], 100);
  expect(time).toEqual({ heldUs: 300, hubObjectUs: 200, modelUs: 0 });
});

test("windows may be given in any order; samples outside every window count nowhere", () => {
  const profile = profileOf([
    [100, "route"],
    [1_500, "route"],
    [2_100, "route"],
  ]);
  const bundle = { scriptId: "bundle", moduleAt, callsHub: () => false };
  const times = isolateTimePerWindow(
    profile,
    bundle,
    [
      { fromUs: 2_000, toUs: 3_000 },
      { fromUs: 0, toUs: 1_000 },
    ],
    100,
  );
  expect(times.map((t) => t.heldUs)).toEqual([100, 100]);
});

test("the lines that call the hub are the route module's calls on `hub.`, 1-based", () => {
  const source = [
    "// functions/agent/routes/runs.ts",
    "const hub = runHub(env);",
    "await hub.start(owner);",
    "hub.cancel();",
    "other.hub.x",
  ].join("\n");
  const lines = hubCallLines(source, (line) => (line <= 3 ? "functions/agent/routes/runs.ts" : "functions/agent/other.ts"));
  expect([...lines]).toEqual([3, 4]);
});
