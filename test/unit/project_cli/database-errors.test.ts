import { expect, test } from "vitest";
import { problemFrom } from "../../../functions/project_cli/database-errors.ts";

test.each([
  [{ code: "", message: "TypeError: fetch failed" }, 0, "UPSTREAM_UNAVAILABLE"],
  [{ code: "PGRST001", message: "Database client error" }, 503, "UPSTREAM_UNAVAILABLE"],
  [{ code: "57P01", message: "terminating connection due to administrator command" }, 503, "UPSTREAM_UNAVAILABLE"],
  [{ code: "08006", message: "connection failure" }, 500, "UPSTREAM_UNAVAILABLE"],
  [{ code: "PGRST301", message: "JWT expired" }, 401, "UNAUTHENTICATED"],
  [{ code: "42501", message: 'new row violates row-level security policy for table "x"' }, 403, "FORBIDDEN"],
  [{ code: "23505", message: 'duplicate key value violates unique constraint "x_key"' }, 409, "CONFLICT"],
  [{ code: "23503", message: "insert or update violates foreign key constraint" }, 409, "NOT_FOUND"],
  [{ code: "PGRST116", message: "JSON object requested, multiple (or no) rows returned" }, 406, "NOT_FOUND"],
  [{ code: "23514", message: 'new row violates check constraint "c"' }, 400, "INVALID_ACTION_INPUT"],
  [{ code: "XX000", message: "internal error at select * from secrets" }, 500, "INTERNAL"],
] as const)("%j (HTTP %i) -> %s, in our own words", (error, status, code) => {
  const problem = problemFrom(error, status);
  expect(problem.code).toBe(code);
  expect(problem.message).not.toContain(error.message);
  expect(problem.message).not.toMatch(/select|constraint|violates/i);
});
