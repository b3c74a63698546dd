// What a refusal from the records (the recording functions, the history reads) means, as one
// stable code per cause. The database's own words (SQL, details, hints) never leave this file:
// clients get our code and our message, operators get the SQLSTATE in the log detail.
//
// The recording functions raise SQLSTATE PTnnn with a code as the message
// (supabase/migrations/20261122000800_record_integrity.sql); PostgREST answers those with HTTP
// nnn. Everything else is classified by SQLSTATE class and HTTP status, so no database answer
// becomes a 500: a refused value is the caller's 4xx, an unreachable database a retryable 503.
import type { ErrorCode } from "../../lib/errors.ts";
import { RecordFailure } from "../runtime/run-recorder.ts";

export type RecordProblemCode =
  | "RUN_EXISTS"
  | "RUN_NOT_FOUND"
  | "RUN_ALREADY_FINISHED"
  | "INVALID_RECORD"
  | "NOT_AUTHORIZED"
  | "DATABASE_UNAVAILABLE";

interface Meaning {
  /** The code and status an HTTP route answers with (docs/http-api.md). */
  errorCode: ErrorCode;
  httpStatus: 400 | 401 | 404 | 409 | 503;
  message: string;
  retryable: boolean;
}

export const RECORD_PROBLEMS: Record<RecordProblemCode, Meaning> = {
  RUN_EXISTS: {
    errorCode: "CONFLICT",
    httpStatus: 409,
    message: "this runId was already used; start a new run with a new runId",
    retryable: false,
  },
  RUN_NOT_FOUND: { errorCode: "NOT_FOUND", httpStatus: 404, message: "no such run", retryable: false },
  RUN_ALREADY_FINISHED: { errorCode: "CONFLICT", httpStatus: 409, message: "the run has already ended", retryable: false },
  INVALID_RECORD: {
    errorCode: "INVALID_REQUEST",
    httpStatus: 400,
    message: "the records cannot hold a value of this request",
    retryable: false,
  },
  NOT_AUTHORIZED: {
    errorCode: "UNAUTHENTICATED",
    httpStatus: 401,
    message: "the database did not accept the credential for this user",
    retryable: false,
  },
  DATABASE_UNAVAILABLE: {
    errorCode: "UPSTREAM_UNAVAILABLE",
    httpStatus: 503,
    message: "the records could not be reached; retry shortly",
    retryable: true,
  },
};

const RAISED: Record<string, RecordProblemCode> = {
  RUN_EXISTS: "RUN_EXISTS",
  RUN_NOT_FOUND: "RUN_NOT_FOUND",
  RUN_ALREADY_FINISHED: "RUN_ALREADY_FINISHED",
  INVALID_RECORD: "INVALID_RECORD",
  NO_USER: "NOT_AUTHORIZED",
};

/** The parts of a PostgREST error this reads; `status` 0 means no HTTP answer at all. */
export interface DatabaseFailure {
  code?: string | null;
  message?: string | null;
}

export function classifyRecordFailure(error: DatabaseFailure, status: number): RecordProblemCode {
  const sqlstate = error.code ?? "";
  // Own raises first: the message is one of our codes (an own property, not a prototype key).
  if (/^PT\d{3}$/.test(sqlstate) && error.message && Object.hasOwn(RAISED, error.message)) return RAISED[error.message]!;
  if (status === 0 || status >= 500 || sqlstate === "" || sqlstate.startsWith("PGRST0") || /^(08|53|57)/.test(sqlstate))
    return "DATABASE_UNAVAILABLE";
  if (status === 401 || status === 403 || sqlstate === "42501" || sqlstate.startsWith("PGRST3")) return "NOT_AUTHORIZED";
  if (sqlstate === "23505") return "RUN_EXISTS";
  if (status === 404 && sqlstate === "PT404") return "RUN_NOT_FOUND";
  // Any other refusal (a check, a value Postgres cannot store, a malformed argument) is about
  // the request's values.
  return "INVALID_RECORD";
}

/** A failed records call, carrying its stable code; the SQLSTATE is for logs only. */
export class RecordingError extends RecordFailure {
  readonly code: RecordProblemCode;
  readonly sqlstate: string;
  constructor(fn: string, code: RecordProblemCode, sqlstate: string) {
    super(`${fn} failed: ${code} (${sqlstate || "network"})`);
    this.name = "RecordingError";
    this.code = code;
    this.sqlstate = sqlstate;
  }
  get meaning(): Meaning {
    return RECORD_PROBLEMS[this.code];
  }
}

export function recordingError(fn: string, error: DatabaseFailure, status: number): RecordingError {
  return new RecordingError(fn, classifyRecordFailure(error, status), error.code ?? "");
}
