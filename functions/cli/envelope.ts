// The outer shape of every call: {module, method, input}, input a required object. The old
// command/subcommand/args names are not accepted; the error says what they are called now.
import { z } from "zod";
import { type CliFailure, failure } from "./result.ts";
import { detailsFromIssues } from "./validation.ts";

export const ENVELOPE_ALIASES: Readonly<Record<string, string>> = {
  command: "module",
  skill: "module",
  subcommand: "method",
  action: "method",
  args: "input",
  arguments: "input",
  params: "input",
  payload: "input",
};

const Envelope = z.strictObject({
  module: z.string().min(1).max(64),
  method: z.string().min(1).max(64),
  input: z.record(z.string(), z.unknown(), { error: "input must be a JSON object, e.g. {} or {\"mode\": \"day\", ...}" }),
});

export type ParsedEnvelope = z.output<typeof Envelope>;

const EXAMPLE = { module: "calendar", method: "read", input: { mode: "day", date: "2026-04-23", timezone: "Asia/Shanghai" } };

export function parseEnvelope(raw: unknown): { ok: true; envelope: ParsedEnvelope } | CliFailure {
  const parsed = Envelope.safeParse(raw, { reportInput: true });
  if (parsed.success) return { ok: true, envelope: parsed.data };
  const record = raw !== null && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : undefined;
  const name = (value: unknown) => (typeof value === "string" && value.length <= 64 ? value : null);
  const details = detailsFromIssues(parsed.error.issues, "", ENVELOPE_ALIASES);
  const suggestion =
    typeof record?.input === "string" || typeof record?.args === "string"
      ? "send input as a JSON object, not as a string containing JSON"
      : 'send exactly {"module": ..., "method": ..., "input": {...}}';
  return failure(name(record?.module), name(record?.method), "INVALID_ENVELOPE", "the call must be {module, method, input} with input an object", {
    ...details,
    suggestion,
    example_input: EXAMPLE,
  });
}
