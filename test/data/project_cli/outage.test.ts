// Faults in the data plane surface as stable, retryable codes, never as a throw. This file
// runs its own data plane so that stopping Postgres disturbs no other test.
import { createClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { runProjectCli } from "../../../functions/project_cli/router.ts";
import { type DataPlane, startDataPlane } from "../../../supabase/local/data-plane.ts";
import { credentialFor, SEEDED } from "../../support/users.ts";

let plane: DataPlane;
const readToday = { module: "calendar", method: "read", input: { mode: "day", date: "2026-04-23", timezone: "UTC" } };

async function ctxFor(url: string, token?: string) {
  const credential = token ?? (await credentialFor(SEEDED.alice)).token;
  return { db: createClient(url, plane.anonKey, { accessToken: async () => credential }), userId: SEEDED.alice };
}

beforeAll(async () => {
  plane = await startDataPlane({ keys: inject("localStack").keys });
}, 30_000);
afterAll(() => plane.stop());

describe("project_cli when parts fail", () => {
  test("Postgres down: UPSTREAM_UNAVAILABLE, retryable; back up: works again", async () => {
    const ctx = await ctxFor(plane.url);
    expect((await runProjectCli(readToday, ctx)).ok).toBe(true);
    await plane.stopPostgres();
    try {
      const down = await runProjectCli(readToday, ctx);
      expect(down).toMatchObject({ ok: false, error: { code: "UPSTREAM_UNAVAILABLE", retryable: true } });
      expect(JSON.stringify(down)).not.toMatch(/57P01|terminating|administrator/);
    } finally {
      await plane.startPostgres();
    }
    expect((await runProjectCli(readToday, ctx)).ok).toBe(true);
  });

  test("the data API unreachable: UPSTREAM_UNAVAILABLE, retryable", async () => {
    const result = await runProjectCli(readToday, await ctxFor("http://127.0.0.1:9"));
    expect(result).toMatchObject({ ok: false, error: { code: "UPSTREAM_UNAVAILABLE", retryable: true } });
  });

  test("an expired credential: UNAUTHENTICATED, and the token is not echoed", async () => {
    const { token } = await credentialFor(SEEDED.alice, { now: Math.floor(Date.now() / 1000) - 900 });
    const result = await runProjectCli(readToday, await ctxFor(plane.url, token));
    expect(result).toMatchObject({ ok: false, error: { code: "UNAUTHENTICATED", retryable: false } });
    expect(JSON.stringify(result)).not.toContain(token);
  });
});
