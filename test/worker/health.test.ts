// GET /health inside workerd, against the real local data plane.
import { env, exports } from "cloudflare:workers";
import { afterEach, describe, expect, inject, test } from "vitest";
import { createApp } from "../../functions/agent/app.ts";
import pkg from "../../package.json" with { type: "json" };

const stack = inject("localStack");
const app = createApp();
const healthWith = (overrides: Record<string, unknown>) => app.request("/health", {}, { ...env, ...overrides });

const outageControl = (action: "stop" | "start") => fetch(`${stack.outage.controlUrl}/postgres/${action}`, { method: "POST" });

describe("GET /health", () => {
  afterEach(async () => {
    await outageControl("start");
  });

  test("answers ok with the version and a database round trip", async () => {
    const response = await exports.default.fetch("http://worker/health");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    const body = await response.json<{ status: string; version: string; database: { ok: boolean; latency_ms: number } }>();
    expect(body).toMatchObject({ status: "ok", version: pkg.version, database: { ok: true } });
    expect(body.database.latency_ms).toBeGreaterThanOrEqual(0);
  });

  test("reports the database down (PostgREST up, Postgres stopped) with 503, and recovers", async () => {
    expect((await healthWith({ SUPABASE_URL: stack.outage.supabaseUrl })).status).toBe(200);
    expect((await outageControl("stop")).status).toBe(204);
    const down = await healthWith({ SUPABASE_URL: stack.outage.supabaseUrl });
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ status: "degraded", database: { ok: false, code: "DATABASE_UNAVAILABLE" } });
    await outageControl("start");
    expect((await healthWith({ SUPABASE_URL: stack.outage.supabaseUrl })).status).toBe(200);
  });

  test("reports an unreachable data API with 503 UPSTREAM_UNAVAILABLE", async () => {
    const response = await healthWith({ SUPABASE_URL: "http://127.0.0.1:9" });
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ status: "degraded", database: { ok: false, code: "UPSTREAM_UNAVAILABLE" } });
  });

  test("names missing settings without revealing any value", async () => {
    const response = await healthWith({ SUPABASE_ANON_KEY: "", CREDENTIAL_TTL_SECONDS: "9999" });
    expect(response.status).toBe(500);
    const text = await response.text();
    const body = JSON.parse(text);
    expect(body).toMatchObject({ status: "misconfigured", version: pkg.version, error: { code: "CONFIG_INVALID" } });
    expect(body.error.problems.map((p: { setting: string }) => p.setting).sort()).toEqual(["CREDENTIAL_TTL_SECONDS", "SUPABASE_ANON_KEY"]);
    for (const secret of [env.AUTH_JWT_SECRET, env.CREDENTIAL_SIGNING_JWK]) expect(text).not.toContain(secret);
  });
});
