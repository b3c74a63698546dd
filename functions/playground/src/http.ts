// Every request the page makes has a deadline, and every refusal becomes {code, message} from
// the Workers' one error shape ({error: {code, message}}), or a code made up here when the
// answer is not that shape (a network failure, a timeout, a proxy's HTML page).
import { isRecord } from "./values.ts";

export const REQUEST_TIMEOUT_MS = 15_000;

export type Answer<T = unknown> = { ok: true; status: number; body: T } | { ok: false; status: number; code: string; message: string };

export interface RequestOptions {
  method?: string;
  token?: string;
  body?: unknown;
  timeoutMs?: number;
}

export async function requestJson<T = unknown>(url: string, options: RequestOptions = {}): Promise<Answer<T>> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(url, {
      method: options.method ?? (options.body === undefined ? "GET" : "POST"),
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === "TimeoutError";
    return {
      ok: false,
      status: 0,
      code: timedOut ? "TIMEOUT" : "NETWORK_ERROR",
      message: timedOut ? `no answer from ${url} in time` : `could not reach ${url}`,
    };
  }
  const text = await response.text().catch(() => "");
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: kept as text
  }
  if (response.ok) return { ok: true, status: response.status, body: body as T };
  return { ok: false, status: response.status, ...errorOf(body, response.status) };
}

/** {code, message} of an error body in any of the shapes the page meets. */
export function errorOf(body: unknown, status: number): { code: string; message: string } {
  if (isRecord(body) && isRecord(body.error) && typeof body.error.code === "string") {
    return { code: body.error.code, message: typeof body.error.message === "string" ? body.error.message : "" };
  }
  // Supabase Auth's shape: {error, error_description}
  if (isRecord(body) && typeof body.error === "string") {
    return { code: body.error, message: typeof body.error_description === "string" ? body.error_description : "" };
  }
  return { code: `HTTP_${status}`, message: typeof body === "string" ? body.slice(0, 200) : "" };
}
