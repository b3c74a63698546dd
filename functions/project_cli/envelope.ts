// The outer shape of every call: {module, method, input}, input a required object. The old
// command/subcommand/args names are not accepted; the error says what they are called now.
import { z } from "zod";
import { isStorableText, storableString } from "./fields.ts";
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

const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

const INPUT_PROBLEM = 'input must be a JSON object, e.g. {} or {"mode": "day", ...}';

const Envelope = z.strictObject({
  module: storableString().min(1).max(64),
  method: storableString().min(1).max(64),
  // Not z.record: it copies the object and silently drops an own "__proto__" key (which
  // JSON.parse creates), so that key would escape the method schema's unknown-key check.
  // The object is passed on as sent; the method schema reads own keys only.
  input: z.unknown().transform((value, ctx) => {
    if (isJsonObject(value)) return value;
    ctx.addIssue({ code: "invalid_type", expected: "object", input: value, message: INPUT_PROBLEM });
    return z.NEVER;
  }),
});

export type ParsedEnvelope = z.output<typeof Envelope>;

const EXAMPLE = { module: "calendar", method: "read", input: { mode: "day", date: "2026-04-23", timezone: "Asia/Shanghai" } };

export function parseEnvelope(raw: unknown): { ok: true; envelope: ParsedEnvelope } | CliFailure {
  const parsed = Envelope.safeParse(raw, { reportInput: true });
  if (parsed.success) return { ok: true, envelope: parsed.data };
  const record = isJsonObject(raw) ? raw : undefined;
  const name = (value: unknown) => (typeof value === "string" && value.length <= 64 && isStorableText(value) ? value : null);
  const details = detailsFromIssues(parsed.error.issues, "", ENVELOPE_ALIASES);
  const own = (key: string) => (record && Object.hasOwn(record, key) ? record[key] : undefined);
  const suggestion =
    typeof own("input") === "string" || typeof own("args") === "string"
      ? "send input as a JSON object, not as a string containing JSON"
      : 'send exactly {"module": ..., "method": ..., "input": {...}}';
  return failure(
    name(own("module")),
    name(own("method")),
    "INVALID_ENVELOPE",
    "the call must be {module, method, input} with input an object",
    {
      ...details,
      suggestion,
      example_input: EXAMPLE,
    },
  );
}
