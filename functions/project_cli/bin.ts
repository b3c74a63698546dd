#!/usr/bin/env -S node --disable-warning=ExperimentalWarning
// project-cli: the same router the agent calls, for operators and scripts.
//   project-cli <module> <method> --input '<json>'      (or --input-file <path>, or JSON on stdin)
// The credential comes from PROJECT_CLI_CREDENTIAL, never from arguments. Prints one JSON
// result on stdout. Exit 0 on success, 1 on a failed call, 2 on a usage problem.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { decodeJwt } from "jose";
import { DATA_PLANE_TIMEOUT_MS } from "../lib/bounded-fetch.ts";
import { createUserClient } from "../lib/supabase.ts";
import { type AllowList, MODULES, parseAllowList } from "./registry.ts";
import { type CliResult, failure } from "./result.ts";
import { runProjectCli } from "./router.ts";

const HELP = `usage: project-cli <module> <method> [--input JSON | --input-file PATH]
       echo '{"mode":"day","date":"2026-04-23","timezone":"UTC"}' | project-cli calendar read

Environment:
  SUPABASE_URL             project URL (e.g. http://127.0.0.1:54321 locally)
  SUPABASE_ANON_KEY        the project's anon / publishable key
  PROJECT_CLI_CREDENTIAL   controlled credential (short-lived JWT) of the acting user
  PROJECT_CLI_ALLOW        optional allow-list, e.g. "calendar.read,contacts.*"
  DATA_PLANE_TIMEOUT_MS    optional deadline per database call (default ${DATA_PLANE_TIMEOUT_MS})

Methods:
${Object.entries(MODULES)
  .map(
    ([module, spec]) =>
      `  ${module}: ${spec.summary}\n${Object.entries(spec.methods)
        .map(([method, m]) => `    ${`${module} ${method}`.padEnd(24)} ${m.summary}`)
        .join("\n")}`,
  )
  .join("\n")}
`;

const JWT_LIKE = /^eyJ[\w-]+\.[\w-]+\.[\w-]*$/;

function finish(result: CliResult, usageProblem = false): never {
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  process.exit(result.ok ? 0 : usageProblem ? 2 : 1);
}

function usage(message: string, module: string | null = null, method: string | null = null): never {
  return finish(
    failure(module, method, "INVALID_ENVELOPE", message, { usage: "project-cli <module> <method> --input '<json>' (see --help)" }),
    true,
  );
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function commandLine(argv: string[]) {
  if (argv.some((arg) => JWT_LIKE.test(arg) || /^--(credential|token|jwt)/.test(arg))) {
    usage("credentials are never accepted as arguments (they would leak into shell history and process lists); set PROJECT_CLI_CREDENTIAL");
  }
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: { input: { type: "string" }, "input-file": { type: "string" }, help: { type: "boolean", short: "h" } },
    });
  } catch (error) {
    return usage((error as Error).message);
  }
}

async function readInput(
  values: { input?: string | undefined; "input-file"?: string | undefined },
  module: string,
  method: string,
): Promise<unknown> {
  let text: string;
  if (values.input !== undefined) text = values.input;
  else if (values["input-file"] !== undefined)
    text = values["input-file"] === "-" ? await readStdin() : readFileSync(values["input-file"], "utf8");
  else if (!process.stdin.isTTY) text = await readStdin();
  else return usage("no input: pass --input '<json object>', --input-file <path>, or JSON on stdin", module, method);
  try {
    return JSON.parse(text);
  } catch {
    return usage("input is not valid JSON", module, method);
  }
}

/** Whose credential it is. PostgREST verifies it on every request; we only need the subject. */
function subjectOf(credential: string, module: string, method: string): string {
  try {
    const sub = decodeJwt(credential).sub;
    if (sub) return sub;
  } catch {
    // fall through
  }
  return finish(failure(module, method, "UNAUTHENTICATED", "PROJECT_CLI_CREDENTIAL is not a JWT with a subject"), true);
}

function allowList(module: string, method: string): AllowList | undefined {
  try {
    return process.env.PROJECT_CLI_ALLOW ? parseAllowList(process.env.PROJECT_CLI_ALLOW) : undefined;
  } catch (error) {
    return usage(`PROJECT_CLI_ALLOW: ${(error as Error).message}`, module, method);
  }
}

/** A hung database must end the command too (exit 1, UPSTREAM_UNAVAILABLE), not hold it. */
function timeoutMs(module: string, method: string): number {
  const raw = process.env.DATA_PLANE_TIMEOUT_MS;
  if (raw === undefined || raw.trim() === "") return DATA_PLANE_TIMEOUT_MS;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 100 || value > 60_000)
    return usage("DATA_PLANE_TIMEOUT_MS must be a whole number of milliseconds, 100 to 60000", module, method);
  return value;
}

const { values, positionals } = commandLine(process.argv.slice(2));
if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}
const [module, method, ...rest] = positionals;
if (!module || !method || rest.length > 0) usage("expected exactly two arguments: <module> <method>");

const { PROJECT_CLI_CREDENTIAL: credential, SUPABASE_URL: supabaseUrl, SUPABASE_ANON_KEY: supabaseAnonKey } = process.env;
if (!credential || !supabaseUrl || !supabaseAnonKey) {
  const missing = Object.entries({ SUPABASE_URL: supabaseUrl, SUPABASE_ANON_KEY: supabaseAnonKey, PROJECT_CLI_CREDENTIAL: credential })
    .filter(([, value]) => !value)
    .map(([name]) => name);
  finish(failure(module, method, "UNAUTHENTICATED", `set ${missing.join(", ")}`, { missing }), true);
}

const userId = subjectOf(credential, module, method);
const allowed = allowList(module, method);
const dataPlane = { timeoutMs: timeoutMs(module, method) };
const input = await readInput(values, module, method);
const db = createUserClient({ supabaseUrl, supabaseAnonKey, dataPlane }, async () => credential);
finish(await runProjectCli({ module, method, input }, { db, userId }, allowed ? { allowed } : {}));
