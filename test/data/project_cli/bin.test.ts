// The project-cli command-line program, run as a process against the real data plane.
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { beforeAll, describe, expect, inject, test } from "vitest";
import { ALL_METHODS } from "../../../functions/project_cli/registry.ts";
import { childEnv } from "../../../supabase/local/processes.ts";
import { credentialFor, SEEDED } from "../../support/users.ts";

const repoRoot = resolve(import.meta.dirname, "../../..");
const stack = inject("localStack");
let credential: string;

beforeAll(async () => {
  credential = (await credentialFor(SEEDED.alice)).token;
});

function cli(args: string[], options: { stdin?: string; env?: Record<string, string | undefined> } = {}) {
  const run = spawnSync(process.execPath, ["--disable-warning=ExperimentalWarning", "functions/project_cli/bin.ts", ...args], {
    cwd: repoRoot,
    input: options.stdin ?? "",
    encoding: "utf8",
    // Only what the program reads.
    env: childEnv({
      PATH: process.env.PATH,
      SUPABASE_URL: stack.supabaseUrl,
      SUPABASE_ANON_KEY: stack.anonKey,
      PROJECT_CLI_CREDENTIAL: credential,
      ...options.env,
    }),
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr, json: () => JSON.parse(run.stdout) };
}

const today = new Date().toISOString().slice(0, 10);

describe("project-cli", () => {
  test("--help lists every module and method", () => {
    const run = cli(["--help"]);
    expect(run.code).toBe(0);
    for (const name of ALL_METHODS) expect(run.stdout).toContain(name.replace(".", " "));
  });

  test("reads input from --input, prints the JSON result, exits 0", () => {
    const run = cli(["calendar", "read", "--input", JSON.stringify({ mode: "day", date: today, timezone: "UTC" })]);
    expect(run.code).toBe(0);
    const result = run.json();
    expect(result).toMatchObject({ ok: true, module: "calendar", method: "read", data: { mode: "day" } });
    expect(result.data.items.map((item: { title: string }) => item.title)).toContain("Project sync");
  });

  test("reads input from stdin", () => {
    const run = cli(["contacts", "read"], { stdin: JSON.stringify({ name: "Bob" }) });
    expect(run.code).toBe(0);
    expect(run.json().data.contacts).toMatchObject([{ display_name: "Bob Li" }]);
  });

  test("a failed call prints the structured error and exits 1", () => {
    const run = cli(["calendar", "read", "--input", '{"event_id":"a0000000-0000-4000-8000-000000000001"}']);
    expect(run.code).toBe(1);
    expect(run.json()).toMatchObject({ ok: false, error: { code: "INVALID_ACTION_INPUT", details: { missing_fields: ["input.mode"] } } });
  });

  test("refuses a credential on the command line, without echoing it", () => {
    const run = cli(["calendar", "read", "--input", "{}", credential]);
    expect(run.code).toBe(2);
    expect(run.stdout + run.stderr).not.toContain(credential);
    expect(run.json().error.message).toContain("PROJECT_CLI_CREDENTIAL");
    expect(cli(["calendar", "read", "--token=abc", "--input", "{}"]).code).toBe(2);
  });

  test("without a credential in the environment it stops before calling anything", () => {
    const run = cli(["memory", "read", "--input", "{}"], { env: { PROJECT_CLI_CREDENTIAL: undefined } });
    expect(run.code).toBe(2);
    expect(run.json()).toMatchObject({ ok: false, error: { code: "UNAUTHENTICATED", details: { missing: ["PROJECT_CLI_CREDENTIAL"] } } });
  });

  test("PROJECT_CLI_ALLOW narrows what may run", () => {
    const run = cli(["memory", "read", "--input", "{}"], { env: { PROJECT_CLI_ALLOW: "calendar.read" } });
    expect(run.code).toBe(1);
    expect(run.json()).toMatchObject({ error: { code: "METHOD_NOT_ALLOWED" } });
  });

  test("usage problems exit 2 with a JSON explanation", () => {
    expect(cli(["calendar"]).code).toBe(2);
    expect(cli(["calendar", "read", "--input", "{not json"]).json()).toMatchObject({
      error: { code: "INVALID_ENVELOPE", message: "input is not valid JSON" },
    });
  });
});
