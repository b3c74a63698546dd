// The result contract of every project_cli call (docs/project-cli.md): a success carries `data`, a
// failure carries a structured, correctable error. Both name the module and method.
export const CLI_ERROR_CODES = {
  INVALID_ENVELOPE: { retryable: false },
  UNKNOWN_METHOD: { retryable: false },
  METHOD_NOT_ALLOWED: { retryable: false },
  INVALID_ACTION_INPUT: { retryable: false },
  NOT_FOUND: { retryable: false },
  FORBIDDEN: { retryable: false },
  CONFLICT: { retryable: false },
  UNAUTHENTICATED: { retryable: false },
  UPSTREAM_UNAVAILABLE: { retryable: true },
  INTERNAL: { retryable: false },
} as const;

export type CliErrorCode = keyof typeof CLI_ERROR_CODES;

export interface InvalidField {
  field: string;
  problem: string;
}

export interface CliErrorDetails {
  missing_fields?: string[];
  invalid_fields?: InvalidField[];
  unknown_fields?: string[];
  /** Legacy or guessed name -> the canonical name. Never accepted, only pointed out. */
  alias_corrections?: Record<string, string>;
  /** One sentence telling the caller what to send instead. */
  suggestion?: string;
  /** A complete, valid input for this method, to copy from. */
  example_input?: unknown;
  valid_modules?: string[];
  valid_methods?: string[];
  [key: string]: unknown;
}

export interface CliError {
  code: CliErrorCode;
  message: string;
  retryable: boolean;
  details: CliErrorDetails;
}

export type CliSuccess<T = unknown> = { ok: true; module: string; method: string; data: T };
export type CliFailure = { ok: false; module: string | null; method: string | null; error: CliError };
export type CliResult<T = unknown> = CliSuccess<T> | CliFailure;

/** Thrown by handlers for expected failures; the router turns it into a CliFailure. */
export class CliProblem extends Error {
  readonly code: CliErrorCode;
  readonly details: CliErrorDetails;
  constructor(code: CliErrorCode, message: string, details: CliErrorDetails = {}) {
    super(message);
    this.code = code;
    this.details = details;
  }
}

export function failure(
  module: string | null,
  method: string | null,
  code: CliErrorCode,
  message: string,
  details: CliErrorDetails = {},
): CliFailure {
  return { ok: false, module, method, error: { code, message, retryable: CLI_ERROR_CODES[code].retryable, details } };
}

/** What the model reads as the tool result: the whole result as JSON, never trimmed (decision D23). */
export function toModelText(result: CliResult): string {
  return JSON.stringify(result);
}
