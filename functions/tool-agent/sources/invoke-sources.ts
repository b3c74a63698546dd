// Runs one call on a tool's sources: the active one first, then the others in their order when
// it fails in a way another source might not (unreachable, crashed, 5xx). A refusal by the tool
// itself (4xx, a result too large) is final. Answers which source served and what each tried
// one said, so the state records the fallback.
import type { SourceRow, StoredTool } from "../tool-types.ts";
import { callDocker, type DockerOptions } from "./docker-source.ts";
import { callLocal, type LocalCallOptions } from "./local-source.ts";
import { callRemote, type RemoteCallOptions } from "./remote-source.ts";
import type { AnswerMode, SourceOutcome } from "./tool-http.ts";

export interface SourceOptions {
  local: LocalCallOptions;
  remote: RemoteCallOptions;
  docker: DockerOptions;
}

export interface SourceAttempt {
  position: number;
  type: SourceRow["type"];
  error?: string;
}

export interface InvokeResult {
  outcome: SourceOutcome;
  /** The source that gave the outcome. */
  position: number;
  attempts: SourceAttempt[];
}

/** The order a call tries the sources in: the active one, then the rest by position. */
export function sourceOrder(sources: readonly SourceRow[], active: number): SourceRow[] {
  const sorted = [...sources].sort((a, b) => a.position - b.position);
  const first = sorted.find((s) => s.position === active);
  return first ? [first, ...sorted.filter((s) => s !== first)] : sorted;
}

function callSource(
  stored: StoredTool,
  source: SourceRow,
  params: Record<string, unknown>,
  options: SourceOptions,
  mode: AnswerMode,
): Promise<SourceOutcome> {
  switch (source.type) {
    case "local":
      return callLocal(stored.tool, source, params, options.local, mode);
    case "remote":
      return callRemote(source, params, options.remote, mode);
    case "docker":
      return callDocker(stored.tool, source, params, options.docker, mode);
  }
}

export async function invokeSources(
  stored: StoredTool,
  params: Record<string, unknown>,
  options: SourceOptions,
  mode: AnswerMode = "json",
): Promise<InvokeResult> {
  const attempts: SourceAttempt[] = [];
  const order = sourceOrder(stored.sources, stored.route?.active_source ?? 0);
  let last: InvokeResult | undefined;
  for (const source of order) {
    const outcome = await callSource(stored, source, params, options, mode);
    attempts.push({ position: source.position, type: source.type, ...(outcome.ok ? {} : { error: outcome.message }) });
    last = { outcome, position: source.position, attempts };
    if (outcome.ok || !outcome.fallback) return last;
  }
  return (
    last ?? {
      outcome: { ok: false, code: "TOOL_UNAVAILABLE", message: "the tool has no sources", fallback: false },
      position: 0,
      attempts,
    }
  );
}
