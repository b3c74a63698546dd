// PostgREST / Postgres failures mapped to stable CLI codes. The message is ours; SQL text,
// hints, details, stack traces and tokens from the database never pass through.
import type { PostgrestError, PostgrestSingleResponse } from "@supabase/supabase-js";
import { CliProblem } from "./result.ts";

const UNAVAILABLE_CODES = new Set(["PGRST000", "PGRST001", "PGRST002", "57P01", "57P02", "57P03", "53300"]);

export function problemFrom(error: Pick<PostgrestError, "code" | "message">, status = 0): CliProblem {
  const code = error.code ?? "";
  if (
    status === 0 ||
    code === "" ||
    UNAVAILABLE_CODES.has(code) ||
    code.startsWith("08") ||
    status === 502 ||
    status === 503 ||
    status === 504
  ) {
    return new CliProblem("UPSTREAM_UNAVAILABLE", "the database is not reachable right now; retry shortly");
  }
  if (status === 401 || code.startsWith("PGRST3")) {
    return new CliProblem("UNAUTHENTICATED", "the tool credential was not accepted; the run must be restarted");
  }
  switch (code) {
    case "42501":
      return new CliProblem("FORBIDDEN", "you do not have permission for this operation");
    case "23505":
      return new CliProblem("CONFLICT", "this already exists");
    case "23503":
    case "PGRST116":
      return new CliProblem("NOT_FOUND", "the referenced record does not exist");
    case "23514":
    case "22P02":
    case "22007":
    case "22008":
    case "22023":
      return new CliProblem("INVALID_ACTION_INPUT", "the database refused a value in the input", {
        missing_fields: [],
        invalid_fields: [],
        alias_corrections: {},
      });
    default:
      return new CliProblem("INTERNAL", "the operation failed unexpectedly");
  }
}

/** Unwraps a supabase-js response: the data, typed by the query, or the mapped problem thrown. */
export function unwrap<T>(response: PostgrestSingleResponse<T>): T {
  if (response.error) throw problemFrom(response.error, response.status);
  return response.data;
}
