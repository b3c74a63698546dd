// A `remote` source: an HTTP API elsewhere. The call goes to remote_url +
// remote_path (or endpoint_path) with the source's method, a deadline, and the API key, which is
// decrypted for this one request only and sent as a bearer token.

import { openSecret } from "../secrets/secret-box.ts";
import type { SourceRow } from "../tool-types.ts";
import { type AnswerMode, answerOf, type SourceOutcome, toolRequest, unreachable } from "./tool-http.ts";

export interface RemoteCallOptions {
  secretKey: CryptoKey;
  timeoutMs: number;
  maxBodyBytes: number;
  fetch?: typeof fetch;
}

export function remoteUrl(source: Pick<SourceRow, "remote_url" | "remote_path" | "endpoint_path">): string {
  const base = (source.remote_url ?? "").replace(/\/+$/, "");
  return `${base}${source.remote_path ?? source.endpoint_path}`;
}

export async function callRemote(
  source: SourceRow,
  params: Record<string, unknown>,
  options: RemoteCallOptions,
  mode: AnswerMode = "json",
): Promise<SourceOutcome> {
  const headers: Record<string, string> = {};
  if (source.remote_api_key_encrypted) {
    headers.authorization = `Bearer ${await openSecret(options.secretKey, source.remote_api_key_encrypted, source.tool_id)}`;
  }
  const timeoutMs = source.timeout_ms ?? options.timeoutMs;
  try {
    const response = await (options.fetch ?? fetch)(toolRequest(remoteUrl(source), source, params, headers), {
      signal: AbortSignal.timeout(timeoutMs),
      redirect: "manual", // a redirect could carry the key's request elsewhere
    });
    return await answerOf(response, options.maxBodyBytes, mode, timeoutMs);
  } catch (error) {
    const name = (error as Error).name;
    return unreachable(
      name === "TimeoutError" || name === "AbortError"
        ? `the remote tool did not answer within ${timeoutMs} ms`
        : `the remote tool could not be reached (${name})`,
    );
  }
}
