// project_cli: envelope -> whitelist -> allow-list -> strict input validation -> handler.
// Always answers with a CliResult; nothing a caller sends can make it throw.
import type { CliContext } from "./context.ts";
import { parseEnvelope } from "./envelope.ts";
import type { CliMethod } from "./method.ts";
import { ALL_METHODS, type AllowList, MODULES } from "./registry.ts";
import { type CliFailure, CliProblem, type CliResult, failure } from "./result.ts";
import { detailsFromIssues, withUnionUnknownKeys } from "./validation.ts";

export interface RunOptions {
  /** Methods this deployment / run may call ("module.method"); absent means all. */
  allowed?: AllowList;
}

const own = (record: object, key: string) => Object.hasOwn(record, key);

export interface ValidatedCall {
  ok: true;
  module: string;
  method: string;
  /** Parsed input (defaults applied), ready for the handler. */
  input: unknown;
  definition: CliMethod;
}

/** Everything but the handler: envelope, whitelist, allow-list, input schema. Pure. */
export function validateProjectCli(call: unknown, options: RunOptions = {}): ValidatedCall | CliFailure {
  const parsed = parseEnvelope(call);
  if (!parsed.ok) return parsed;
  const { module, method, input } = parsed.envelope;

  if (!own(MODULES, module)) {
    return failure(module, method, "UNKNOWN_METHOD", `there is no module "${module}"`, {
      valid_modules: Object.keys(MODULES),
      valid_methods: [...ALL_METHODS],
    });
  }
  const spec = MODULES[module]!;
  if (!own(spec.methods, method)) {
    const correction = spec.methodCorrections && own(spec.methodCorrections, method) ? spec.methodCorrections[method] : undefined;
    return failure(module, method, "UNKNOWN_METHOD", `module "${module}" has no method "${method}"`, {
      valid_methods: Object.keys(spec.methods),
      ...(correction ? { suggestion: `use ${module}.${correction}` } : {}),
    });
  }
  if (options.allowed && !options.allowed.has(`${module}.${method}`)) {
    return failure(module, method, "METHOD_NOT_ALLOWED", `${module}.${method} is not enabled for this assistant`, {
      allowed_methods: [...options.allowed].filter((name) => name.startsWith(`${module}.`)),
    });
  }

  const definition = spec.methods[method]!;
  const validated = definition.input.safeParse(input, { reportInput: true });
  if (!validated.success) {
    const suggestion = definition.suggest?.(input);
    return failure(module, method, "INVALID_ACTION_INPUT", `input does not match ${module}.${method}`, {
      ...detailsFromIssues(withUnionUnknownKeys(definition.input, input, validated.error.issues), "input"),
      ...(suggestion ? { suggestion } : {}),
      example_input: definition.example,
    });
  }
  return { ok: true, module, method, input: validated.data, definition };
}

export async function runProjectCli(call: unknown, ctx: CliContext, options: RunOptions = {}): Promise<CliResult> {
  const validated = validateProjectCli(call, options);
  if (!validated.ok) return validated;
  const { module, method, definition } = validated;
  try {
    return { ok: true, module, method, data: await definition.run(validated.input, ctx) };
  } catch (error) {
    if (error instanceof CliProblem) return failure(module, method, error.code, error.message, error.details);
    // Unexpected: keep the name for operators, never the message or stack for the model.
    return failure(module, method, "INTERNAL", "the operation failed unexpectedly", {
      error_type: error instanceof Error ? error.name : typeof error,
    });
  }
}
