// Does the database answer? One round trip through PostgREST (public.health_check()).
import type { DataPlaneSettings } from "./data-plane-settings.ts";
import { createAnonClient } from "./supabase.ts";

export type DatabaseHealth =
  | { ok: true; latency_ms: number }
  | { ok: false; latency_ms: number; code: "DATABASE_UNAVAILABLE" | "UPSTREAM_UNAVAILABLE" | "TIMEOUT" };

export async function checkDatabase(
  settings: Pick<DataPlaneSettings, "supabaseUrl" | "supabaseAnonKey" | "dataPlane">,
  timeoutMs = 2_000,
): Promise<DatabaseHealth> {
  const started = Date.now();
  const elapsed = () => Date.now() - started;
  try {
    const { data, error, status } = await createAnonClient(settings).rpc("health_check").abortSignal(AbortSignal.timeout(timeoutMs));
    if (!error && data === true) return { ok: true, latency_ms: elapsed() };
    if (error?.message.includes("AbortError") || error?.message.includes("TimeoutError")) {
      return { ok: false, latency_ms: elapsed(), code: "TIMEOUT" };
    }
    // PostgREST answered but could not reach Postgres (503), versus no answer at all (0).
    return { ok: false, latency_ms: elapsed(), code: status >= 500 && status < 600 ? "DATABASE_UNAVAILABLE" : "UPSTREAM_UNAVAILABLE" };
  } catch {
    return { ok: false, latency_ms: elapsed(), code: "UPSTREAM_UNAVAILABLE" };
  }
}
