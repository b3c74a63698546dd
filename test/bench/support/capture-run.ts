// Captures what one demo agent run does to the outside world, for the floor Worker to replay
// (floor/run-script.ts): a throwaway agent on wrangler dev, its data-plane calls through a tap,
// its R2 objects read from its persistence directory, its SSE frames from the client side.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { FloorScript } from "../floor/run-script.ts";
import { runInput, startRun } from "./agent-client.ts";
import type { DataPlaneTap } from "./data-plane-tap.ts";
import type { BenchWorker } from "./wrangler-worker.ts";

/** Distinctive ids, so replacing them in captured text touches nothing else. */
const CAPTURE_IDS = { threadId: "floor-capture-thread-7f3c", runId: "7f3c0000-0000-4000-8000-00000000ca91" };

const blobSizes = (persistDir: string): Map<string, number> => {
  const dir = join(persistDir, "v3/r2");
  const sizes = new Map<string, number>();
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (d.endsWith("/blobs")) sizes.set(path, statSync(path).size);
    }
  };
  try {
    walk(dir);
  } catch {
    // no R2 writes yet
  }
  return sizes;
};

/** Headers the floor sends as they were, besides the credential and key it sets itself. */
const KEPT_HEADERS = ["content-type", "accept-profile", "content-profile", "prefer", "accept"];

/** Runs one warm-up run, then the captured one (the agent must point at `tap`). */
export async function captureRun(agent: BenchWorker, tap: DataPlaneTap, token: string): Promise<FloorScript> {
  await startRun(agent.url, token, runInput(CAPTURE_IDS.threadId, crypto.randomUUID()));
  const before = blobSizes(agent.persistDir);
  tap.reset();
  tap.keepBodies = true;
  const response = await fetch(`${agent.url}/api/v1/agent/runs`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: runInput(CAPTURE_IDS.threadId, CAPTURE_IDS.runId),
  });
  const sse = await response.text();
  tap.keepBodies = false;
  const frames = sse
    .split("\n\n")
    .filter((frame) => frame !== "")
    .map((frame) => `${frame}\n\n`);
  if (!frames.at(-1)?.includes('"RUN_FINISHED"')) throw new Error(`the captured run did not finish: ${frames.at(-1)}`);
  const calls = tap.calls
    .filter((call) => call.service === "postgrest")
    .map((call) => ({
      method: call.method,
      path: `${call.path}${call.query ? `?${call.query}` : ""}`,
      body: call.body ?? "",
      headers: Object.fromEntries(Object.entries(call.headers ?? {}).filter(([name]) => KEPT_HEADERS.includes(name))),
    }));
  const payloadBytes = [...blobSizes(agent.persistDir)].filter(([path]) => !before.has(path)).map(([, size]) => size);
  return { ...CAPTURE_IDS, calls, payloadBytes, frames };
}
