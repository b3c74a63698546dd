// project-cli against a data plane that hangs (processes stopped with SIGSTOP, not dead):
// the command ends on its own with the same exit code and error as for a database that is
// down, instead of waiting forever. Uses the outage plane (the global setup's control endpoint).
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { afterEach, beforeAll, describe, expect, inject, test } from "vitest";
import { childEnv } from "../../../supabase/local/processes.ts";
import { SEEDED, credentialFor } from "../../support/users.ts";

const repoRoot = resolve(import.meta.dirname, "../../..");
const stack = inject("localStack");
const control = (path: string) => fetch(`${stack.outage.controlUrl}${path}`, { method: "POST" }).then((r) => expect(r.status).toBe(204));
let credential: string;

beforeAll(async () => {
  credential = (await credentialFor(SEEDED.alice)).token;
});
afterEach(async () => {
  await control("/postgrest/resume");
  await control("/postgres/resume");
  await control("/postgres/start");
});

/** Runs the CLI; a run still going after `killAfterMs` is killed (exit code null). */
function cli(killAfterMs: number): Promise<{ code: number | null; stdout: string; ms: number }> {
  const began = performance.now();
  const child = spawn(process.execPath, ["--disable-warning=ExperimentalWarning", "functions/cli/bin.ts", "calendar", "read", "--input", JSON.stringify({ mode: "day", date: "2026-04-23", timezone: "UTC" })], {
    cwd: repoRoot,
    env: childEnv({ PATH: process.env.PATH, SUPABASE_URL: stack.outage.supabaseUrl, SUPABASE_ANON_KEY: stack.anonKey, PROJECT_CLI_CREDENTIAL: credential, DATA_PLANE_TIMEOUT_MS: "1000" }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  const killer = setTimeout(() => child.kill("SIGKILL"), killAfterMs);
  return new Promise((done) =>
    child.once("exit", (code) => {
      clearTimeout(killer);
      done({ code, stdout, ms: performance.now() - began });
    }),
  );
}

describe("project-cli with a hung data plane", () => {
  test("the exit code and error for a stopped database, as the reference", async () => {
    await control("/postgres/stop");
    const run = await cli(15_000);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, error: { code: "UPSTREAM_UNAVAILABLE", retryable: true } });
  });

  for (const target of ["postgrest", "postgres"] as const) {
    test(`${target} hung: the same exit code and error, within the deadline`, async () => {
      await control(`/${target}/pause`);
      const run = await cli(15_000);
      console.log(`project-cli with ${target} hung (DATA_PLANE_TIMEOUT_MS=1000): exit ${run.code} after ${run.ms.toFixed(0)} ms`);
      expect(run.code).toBe(1);
      expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, error: { code: "UPSTREAM_UNAVAILABLE", retryable: true } });
    });
  }
});
