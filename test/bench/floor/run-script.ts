// What one agent run does to the outside world, captured by the benchmark from a real demo run
// (test/bench/support/capture-run.ts) and replayed by the floor Worker: the same PostgREST
// calls with the same bodies, R2 objects of the same sizes, the same SSE bytes.

export interface ScriptedCall {
  method: string;
  /** Path and query under SUPABASE_URL, e.g. /rest/v1/rpc/record_run_start. */
  path: string;
  body: string;
  /** Request headers besides the credential and the anon key (content type, profiles). */
  headers: Record<string, string>;
}

export interface FloorScript {
  /** The captured run's ids: every occurrence is replaced by the new run's ids. */
  threadId: string;
  runId: string;
  calls: ScriptedCall[];
  /** Sizes of the R2 objects the run wrote (one per tool call). */
  payloadBytes: number[];
  /** The run's SSE frames as the client received them. */
  frames: string[];
}

export const FLOOR_SCRIPT_VAR = "FLOOR_SCRIPT";

/** Env files hold one line per value: the script travels base64-encoded. */
export function encodeFloorScript(script: FloorScript): string {
  return Buffer.from(JSON.stringify(script)).toString("base64");
}

export function decodeFloorScript(encoded: string): FloorScript {
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0)))) as FloorScript;
}

/** The captured text with the captured run's ids replaced by this run's. */
export function forRun(text: string, script: Pick<FloorScript, "threadId" | "runId">, ids: { threadId: string; runId: string }): string {
  return text.replaceAll(script.runId, ids.runId).replaceAll(script.threadId, ids.threadId);
}
