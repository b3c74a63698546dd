// project-cli against a data plane that hangs (processes stopped with SIGSTOP, not dead):
// the command ends on its own with the same exit code and error as for a database that is
// down, instead of waiting forever. This file runs its own data plane, so hanging it stalls
// no other test.
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, inject, test } from "vitest";
import { type DataPlane, startDataPlane } from "../../../supabase/local/data-plane.ts";
import { childEnv } from "../../../supabase/local/processes.ts";
import { hang, resume } from "../../support/hang.ts";
import { credentialFor, SEEDED } from "../../support/users.ts";

const repoRoot = resolve(import.meta.dirname, "../../..");
const stack = inject("localStack");
let plane: DataPlane;
let credential: string;

beforeAll(async () => {
  plane = await startDataPlane({ keys: stack.keys });
  credential = (await credentialFor(SEEDED.alice)).token;
}, 30_000);
afterEach(async () => {
  for (const target of ["postgrest", "postgres"] as const) resume(plane, target);
  await plane.startPostgres();
});
afterAll(() => plane?.stop());

/** Runs the CLI; a run still going after `killAfterMs` is killed (exit code null). */
function cli(killAfterMs: number): Promise<{ code: number | null; stdout: string; ms: number }> {
  const began = performance.now();
  const child = spawn(
    process.execPath,
    [
      "--disable-warning=ExperimentalWarning",
      "functions/project_cli/bin.ts",
      "calendar",
      "read",
      "--input",
      JSON.stringify({ mode: "day", date: "2026-04-23", timezone: "UTC" }),
    ],
    {
      cwd: repoRoot,
      env: childEnv({
        PATH: process.env.PATH,
        SUPABASE_URL: plane.url,
        SUPABASE_ANON_KEY: plane.anonKey,
        PROJECT_CLI_CREDENTIAL: credential,
        DATA_PLANE_TIMEOUT_MS: "1000",
      }),
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
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
    await plane.stopPostgres();
    const run = await cli(15_000);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, error: { code: "UPSTREAM_UNAVAILABLE", retryable: true } });
  });

  for (const target of ["postgrest", "postgres"] as const) {
    test(`${target} hung: the same exit code and error, within the deadline`, async () => {
      await hang(plane, target);
      const run = await cli(15_000);
      console.log(`project-cli with ${target} hung (DATA_PLANE_TIMEOUT_MS=1000): exit ${run.code} after ${run.ms.toFixed(0)} ms`);
      expect(run.code).toBe(1);
      expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, error: { code: "UPSTREAM_UNAVAILABLE", retryable: true } });
    });
  }
});
