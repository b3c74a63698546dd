// Attributes a V8 CPU profile of the agent Worker to our stages and to dependencies.
// The profile comes from an unminified `wrangler dev` bundle, where esbuild starts each
// module's code with a `// <path>` comment: a frame's line says which module it is in.
// Each sample counts for the time until the next sample (timeDeltas), on the isolate's thread.
import type { CpuProfile } from "./cdp.ts";

type ProfileNode = CpuProfile["nodes"][number];

/**
 * esbuild names modules relative to the config's directory (which may be a temp dir): keep
 * the part from `node_modules/` or from our `functions/` on.
 */
export function repoRelative(path: string): string {
  const trimmed = path.replace(/^(\.\.\/)+/, "");
  const dependency = trimmed.indexOf("node_modules/");
  if (dependency >= 0) return trimmed.slice(dependency);
  const ours = /(^|\/)functions\//.exec(trimmed);
  return ours ? trimmed.slice(ours.index + ours[1]!.length) : trimmed;
}

/** Module of every line of the bundle, from esbuild's `// path` comments. */
export function moduleMap(bundleSource: string): (line: number) => string {
  const starts: Array<{ line: number; module: string }> = [];
  bundleSource.split("\n").forEach((text, line) => {
    const match = /^\/\/ ((?:\.\.\/)*[\w@.\-/]+\.(?:m?js|cjs|ts|json))$/.exec(text);
    if (match) starts.push({ line, module: repoRelative(match[1]!) });
  });
  return (line) => {
    let lo = 0;
    let hi = starts.length - 1;
    let found = "(bundle prelude)";
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]!.line <= line) {
        found = starts[mid]!.module;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  };
}

/** npm package of a module path, or the path itself for our own code. */
export function packageOf(module: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(module);
  return match ? match[1]! : module;
}

/** Dependencies grouped the way the bundle table groups them. */
export function dependencyOf(module: string): string {
  if (module === MINIFLARE_DO_WRAPPER) return "miniflare (wrangler dev only)";
  const pkg = packageOf(module);
  if (pkg.startsWith("@supabase/")) return "supabase-js (postgrest-js, auth-js, ...)";
  if (pkg === "ai" || pkg.startsWith("@ai-sdk/")) return "AI SDK (ai, @ai-sdk/*)";
  if (pkg.startsWith("@ag-ui/") || pkg === "@bufbuild/protobuf") return "@ag-ui/core + encoder (+ protobuf)";
  if (pkg === "zod" || pkg === "jose" || pkg === "hono" || pkg === "hono-openapi") return pkg;
  if (module.startsWith("functions/")) return "our code (functions/)";
  if (module.includes("node_modules")) return pkg;
  return `other (${module})`;
}

export interface Frame {
  /** Module path for JS frames; "" for native frames and runtime APIs. */
  module: string;
  fn: string;
}

/**
 * Stages whose names start with this run inside the run's Durable Object: on `wrangler dev` in
 * the Worker's own isolate, in production on the object's machine.
 */
export const HUB_OBJECT = "hub object: ";

/**
 * Miniflare wraps every Durable Object class on `wrangler dev`: its constructor writes the
 * object's name to the object's own SQLite (a table created on each construction). That is
 * the object's work, and production does not run it at all.
 */
const MINIFLARE_DO_WRAPPER = "(miniflare's Durable Object wrapper)";
const isMiniflareWrapper = (url: string) => url.endsWith("__mf_do_wrapper.js");

/**
 * The stage a stack belongs to: the frame nearest the leaf that says which stage it is.
 * Our modules decide by path (and for the hub and recorder by method); the AI SDK by its entry
 * point when ours is not on the stack (a resumed async function loses its callers).
 */
export function stageOf(stack: readonly Frame[]): string {
  for (const { module, fn } of stack) {
    if (module === "") continue;
    if (module === MINIFLARE_DO_WRAPPER) return `${HUB_OBJECT}wrangler dev's wrapper (its name table)`;
    if (module.includes("lib/auth/verif") || module.includes("lib/auth/middleware")) return "auth: verify the token";
    if (module.includes("lib/auth/credential") || module.includes("lib/user-database") || module.includes("lib/supabase.ts"))
      return "credential + database client";
    if (module.includes("agent/settings") || module.includes("lib/settings-parsing") || module.includes("lib/data-plane-settings"))
      return "settings";
    if (module.includes("runtime/run-request")) return "request parsing";
    if (module.includes("run-hub/run-hub")) {
      // runHub() is the Worker's side (it names the object); the rest is the object's code.
      if (fn === "runHub") return "hub calls (run side)";
      if (fn === "claim" || fn === "start" || fn === "load" || fn === "idleLimitMs") return `${HUB_OBJECT}claim`;
      if (fn === "append" || fn === "write" || fn === "number" || fn === "deliver" || fn === "refused") return `${HUB_OBJECT}appends`;
      return `${HUB_OBJECT}followers, cancel checks`;
    }
    if (module.includes("run-hub/event-pipe") || module.includes("run-hub/record-state")) return "hub calls (run side)";
    if (module.includes("run-hub/sse-frame") || module.includes("run-hub/live-stream")) return "SSE (frames, the live stream)";
    if (module.includes("persistence/run-recorder")) {
      if (fn === "start") return "record start";
      if (fn === "toolResult" || fn === "put") return "tool payloads (R2)";
      return "record finish";
    }
    if (module.includes("persistence/payload-store")) return "tool payloads (R2)";
    if (module.includes("persistence/records")) return "record finish";
    if (module.includes("runtime/intent") || module.includes("runtime/strict-schema")) return "intent";
    if (module.includes("functions/project_cli/")) return "tool call (project_cli)";
    if (module.includes("post-processing/")) return "post-processing";
    if (module.includes("agent/skills/")) return "tool call (view_skill_file)";
    if (module.includes("runtime/demo-model")) return "model (offline demo)";
    if (module.includes("functions/lib/log")) return "logging";
    if (module.includes("functions/agent/runtime/")) return "execution (run loop, events)";
    if (module.includes("routes/runs")) return "route handler (runs)";
    if (module.includes("functions/")) return "framework + middleware (ours)";
    // The run's tool loop calls the AI SDK for each model step (D46): its frames are the SDK's
    // share of the execution stage, not the loop's.
    if (module.includes("node_modules/ai/") || module.includes("node_modules/@ai-sdk/")) return "execution (AI SDK)";
  }
  const leaf = stack.find((frame) => frame.module !== "");
  if (!leaf) return "runtime (no JS on the stack)";
  const dep = dependencyOf(leaf.module);
  if (dep.startsWith("AI SDK")) return "execution (AI SDK)";
  if (dep.startsWith("supabase-js")) return "supabase-js (responses)";
  if (dep === "hono") return "framework + middleware (ours)";
  return `other: ${dep}`;
}

export interface Attribution {
  /** Microseconds of isolate-thread time per stage, per dependency (self time), per native API. */
  byStage: Map<string, number>;
  byDependency: Map<string, number>;
  /** Samples whose leaf is a runtime API (put, fetch, ...) or the VM itself, by name. */
  byNative: Map<string, number>;
  idleUs: number;
  busyUs: number;
}

const add = (map: Map<string, number>, key: string, value: number) => map.set(key, (map.get(key) ?? 0) + value);

/** The profile's nodes by id, and each node's stack (leaf first) as modules and function names. */
export function profileStacks(
  profile: CpuProfile,
  bundle: { scriptId: string; moduleAt: (line: number) => string },
): { byId: Map<number, ProfileNode>; stackOf: (id: number) => Frame[] } {
  const parent = new Map<number, number>();
  const byId = new Map<number, ProfileNode>();
  for (const node of profile.nodes) {
    byId.set(node.id, node);
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  // Profile frames name the script by a short url; its id is what identifies the bundle.
  const isBundle = (node: ProfileNode) => node.callFrame.scriptId === bundle.scriptId;
  const stacks = new Map<number, Frame[]>();
  const stackOf = (id: number): Frame[] => {
    let cached = stacks.get(id);
    if (!cached) {
      cached = [];
      for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
        const node = byId.get(cur)!;
        if (node.callFrame.functionName === "(root)") break;
        const module = isBundle(node)
          ? bundle.moduleAt(node.callFrame.lineNumber)
          : isMiniflareWrapper(node.callFrame.url)
            ? MINIFLARE_DO_WRAPPER
            : "";
        cached.push({ module, fn: node.callFrame.functionName });
      }
      stacks.set(id, cached);
    }
    return cached;
  };
  return { byId, stackOf };
}

/**
 * Walks the samples. A sample's leaf may be a runtime API (storage put, fetch, console) called
 * from JS: its time counts for the JS caller's stage, and for the API in `byNative`.
 * `include` keeps only samples taken inside the given time windows (microseconds, monotonic);
 * `intervalUs` weighs every sample the same (by count) instead of by the time to the next one.
 * The bundle is the Worker's script: its id in the profile and the module of each of its lines.
 */
export function attribute(
  profile: CpuProfile,
  bundle: { scriptId: string; moduleAt: (line: number) => string },
  options: { include?: (timeUs: number) => boolean; intervalUs?: number } = {},
): Attribution {
  const { include, intervalUs } = options;
  const { byId, stackOf } = profileStacks(profile, bundle);
  const result: Attribution = { byStage: new Map(), byDependency: new Map(), byNative: new Map(), idleUs: 0, busyUs: 0 };
  let time = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i] ?? 0;
    // By count, each sample stands for one sampling interval of the thread running: a thread
    // that waited for a core (a busy machine) gets one late sample, not the whole wait.
    const duration = intervalUs ?? profile.timeDeltas[i + 1] ?? 0;
    if (include && !include(time)) continue;
    const node = byId.get(profile.samples[i]!)!;
    const name = node.callFrame.functionName;
    if (name === "(idle)") {
      result.idleUs += duration;
      continue;
    }
    result.busyUs += duration;
    const stack = stackOf(node.id);
    if (name === "(program)" || name === "(garbage collector)") {
      add(result.byStage, name === "(program)" ? "runtime (no JS on the stack)" : "garbage collector", duration);
      add(result.byNative, name, duration);
      continue;
    }
    add(result.byStage, stageOf(stack), duration);
    const leaf = stack[0];
    if (leaf && leaf.module === "") {
      add(result.byNative, leaf.fn === "" ? "(native, unnamed)" : `${leaf.fn}()`, duration);
      const caller = stack.find((frame) => frame.module !== "");
      add(
        result.byDependency,
        caller ? `runtime APIs called from ${dependencyOf(caller.module)}` : "runtime (no JS on the stack)",
        duration,
      );
    } else if (leaf) {
      add(result.byDependency, dependencyOf(leaf.module), duration);
    }
  }
  return result;
}
