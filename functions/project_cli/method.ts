// A project_cli method: its input schema, its result schema, one valid example, the handler,
// and optional advice for known confusions. `defineMethod` erases the types once the pairing of
// schemas and handler has been checked, so the router can hold methods of every shape.
import type { z } from "zod";
import type { CliContext } from "./context.ts";

export interface MethodDefinition<S extends z.ZodType, R extends z.ZodType> {
  /** One line, shown in --help and in UNKNOWN_METHOD errors. */
  summary: string;
  input: S;
  /** What a success carries as `data` (the module's results.ts); the handler must return it. */
  result: R;
  /** A complete valid input; returned in validation errors and checked by the tests. */
  example: z.input<S>;
  handler: (input: z.output<S>, ctx: CliContext) => Promise<z.output<R>>;
  /** Advice for a known confusion, given the raw input that failed validation. */
  suggest?: (input: Record<string, unknown>) => string | undefined;
}

export interface CliMethod {
  summary: string;
  input: z.ZodType;
  result: z.ZodType;
  example: unknown;
  /** `input` must already be the parsed output of `this.input`. */
  run: (input: unknown, ctx: CliContext) => Promise<unknown>;
  suggest?: (input: Record<string, unknown>) => string | undefined;
}

export function defineMethod<S extends z.ZodType, R extends z.ZodType>(definition: MethodDefinition<S, R>): CliMethod {
  return {
    summary: definition.summary,
    input: definition.input,
    result: definition.result,
    example: definition.example,
    run: (input, ctx) => definition.handler(input as z.output<S>, ctx),
    ...(definition.suggest ? { suggest: definition.suggest } : {}),
  };
}

export interface CliModule {
  summary: string;
  methods: Readonly<Record<string, CliMethod>>;
  /** Method names callers guess, and what to call instead. */
  methodCorrections?: Readonly<Record<string, string>>;
}
