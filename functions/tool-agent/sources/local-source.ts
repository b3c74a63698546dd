// A `local` source: the tool's JavaScript module, kept in object storage, run in a sandboxed
// isolate (Dynamic Worker Loader). No network unless the tool declared it, no bindings at all,
// CPU and subrequest limits (enforced by Cloudflare; locally by loop-guard.ts), a deadline on
// the call. Isolates are cached by tool id and version, so a new registration loads new code.
import { withDeadline } from "../../lib/bounded-fetch.ts";
import type { SourceRow, ToolRow } from "../tool-types.ts";
import { sandboxModules } from "./sandbox-modules.ts";
import { type AnswerMode, answerOf, type SourceOutcome, toolRequest, unreachable } from "./tool-http.ts";

/** The compatibility date sandboxed tools run with (the newest the pinned workerd supports). */
export const SANDBOX_COMPATIBILITY_DATE = "2026-08-15";

export interface LocalCallOptions {
  loader: WorkerLoader;
  code: R2Bucket;
  limits: { cpuMs: number; subRequests: number; stepLimit: number };
  timeoutMs: number;
  maxBodyBytes: number;
}

/** Where a version's module is kept: `<host_dir>/module.js`, host_dir = `tools/<id>/v<version>-<nonce>`. */
export const moduleKey = (hostDir: string) => `${hostDir}/module.js`;
export const hostDirFor = (toolId: string, version: number, nonce: string) => `tools/${toolId}/v${version}-${nonce}`;

export class ToolCodeMissing extends Error {
  override readonly name = "ToolCodeMissing";
}

/** What the sandbox loads for one module: guarded, no bindings, no network unless allowed, limits. */
export function sandboxCode(
  moduleText: string,
  options: { allowNetwork: boolean; limits: LocalCallOptions["limits"] },
): WorkerLoaderWorkerCode {
  const nonce = crypto.randomUUID().replace(/-/g, "").slice(0, 16);
  return {
    compatibilityDate: SANDBOX_COMPATIBILITY_DATE,
    ...sandboxModules(moduleText, { stepLimit: options.limits.stepLimit, nonce }),
    env: {},
    // null: every fetch() and connect() from the tool fails. Left out, the tool shares this
    // Worker's network (only for tools registered with allow_network).
    ...(options.allowNetwork ? {} : { globalOutbound: null }),
    limits: { cpuMs: options.limits.cpuMs, subRequests: options.limits.subRequests },
  };
}

function sandboxFor(tool: ToolRow, source: SourceRow, options: LocalCallOptions): WorkerStub {
  const hostDir = source.host_dir ?? "";
  return options.loader.get(`${tool.tool_id}@${tool.version}#${source.position}`, async () => {
    const object = await options.code.get(moduleKey(hostDir));
    if (!object) throw new ToolCodeMissing(`the tool's module is missing from storage (${moduleKey(hostDir)})`);
    return sandboxCode(await object.text(), { allowNetwork: source.allow_network, limits: options.limits });
  });
}

/** One call into a loaded sandbox, bounded as a whole by `timeoutMs`; a throw in the tool is TOOL_FAILED. */
export async function callSandbox(
  stub: WorkerStub,
  source: Pick<SourceRow, "endpoint_path" | "http_method">,
  params: Record<string, unknown>,
  options: { timeoutMs: number; maxBodyBytes: number },
  mode: AnswerMode = "json",
): Promise<SourceOutcome> {
  try {
    const entrypoint = stub.getEntrypoint();
    // The deadline covers the whole answer: a tool can send its headers and never end its body.
    return await withDeadline(
      entrypoint
        .fetch(toolRequest(`http://tool.local${source.endpoint_path}`, source, params))
        .then((response) => answerOf(response, options.maxBodyBytes, mode, options.timeoutMs)),
      options.timeoutMs,
      "the local tool",
    );
  } catch (error) {
    const { name, message } = error as Error;
    if (name === "TimeoutError") return unreachable(message);
    // The tool threw (its own error, the step limit, a blocked fetch): the tool failed, and its
    // other sources may not; the message is the sandbox's, without a stack.
    return { ok: false, code: "TOOL_FAILED", message: `the local tool failed: ${message.split("\n")[0]?.slice(0, 300)}`, fallback: true };
  }
}

export function callLocal(
  tool: ToolRow,
  source: SourceRow,
  params: Record<string, unknown>,
  options: LocalCallOptions,
  mode: AnswerMode = "json",
): Promise<SourceOutcome> {
  const timeoutMs = source.timeout_ms ?? options.timeoutMs;
  return callSandbox(sandboxFor(tool, source, options), source, params, { timeoutMs, maxBodyBytes: options.maxBodyBytes }, mode);
}
