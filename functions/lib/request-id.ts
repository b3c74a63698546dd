// Every response carries the request id: as the `x-request-id` header (streams included) and,
// on JSON errors, as `error.request_id`, so a user's report finds the log line. Hono's own
// requestId() sets the header only on responses built through the context (c.json), not on a
// `new Response(stream)` a handler returns, so this stamps whatever response came back.
import { createMiddleware } from "hono/factory";
import { type RequestIdVariables, requestId } from "hono/request-id";

export const REQUEST_ID_HEADER = "x-request-id";

/** Chooses the id (the caller's `x-request-id` if it is a plain token, else a new UUID). */
export const assignRequestId = requestId({ headerName: REQUEST_ID_HEADER });

interface JsonError {
  error: Record<string, unknown>;
}
const isJsonError = (body: unknown): body is JsonError =>
  body !== null && typeof body === "object" && "error" in body && body.error !== null && typeof body.error === "object";

export const stampRequestId = createMiddleware<{ Variables: RequestIdVariables }>(async (c, next) => {
  await next();
  const id = c.var.requestId;
  const response = c.res;
  const headers = new Headers(response.headers);
  headers.set(REQUEST_ID_HEADER, id);
  let body: BodyInit | null = null;
  if (response.status >= 400 && (headers.get("content-type") ?? "").startsWith("application/json")) {
    // Error bodies are small JSON built by our own handlers: read whole, amended, re-sent.
    const text = await response.text();
    const parsed: unknown = (() => {
      try {
        return JSON.parse(text);
      } catch {
        return undefined;
      }
    })();
    body =
      isJsonError(parsed) && !Object.hasOwn(parsed.error, "request_id")
        ? JSON.stringify({ ...parsed, error: { ...parsed.error, request_id: id } })
        : text;
    headers.delete("content-length");
  } else {
    body = response.body;
  }
  // Unset first: assigning over an existing response would merge the old headers back in.
  c.res = undefined;
  c.res = new Response(body, { status: response.status, statusText: response.statusText, headers });
});
