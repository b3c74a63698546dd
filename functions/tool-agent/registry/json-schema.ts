// JSON Schema checks of a tool's params and results, with @cfworker/json-schema: it interprets
// schemas instead of generating code, so it runs on Workers (where eval and new Function do
// not). Problems come back the way project_cli reports input errors: missing fields, invalid
// fields with what is wrong, unknown fields, so a caller (or a model) fixes all of them at once.
import { type OutputUnit, type Schema, Validator } from "@cfworker/json-schema";

export interface SchemaProblems {
  missing_fields: string[];
  invalid_fields: { field: string; problem: string }[];
  unknown_fields?: string[];
}

// Keywords that only summarise their children's errors; the children say what is wrong.
const SUMMARY_KEYWORDS = new Set([
  "properties",
  "items",
  "prefixItems",
  "allOf",
  "$ref",
  "additionalItems",
  "unevaluatedProperties",
  "dependentSchemas",
]);

/** `#/a/0/b` as `a[0].b`; the root as "". */
function fieldName(instanceLocation: string): string {
  return instanceLocation
    .replace(/^#\/?/, "")
    .split("/")
    .filter(Boolean)
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((name, part) => (/^\d+$/.test(part) ? `${name}[${part}]` : name ? `${name}.${part}` : part), "");
}

// Building a validator walks the whole schema; tools are called with the same schemas again and
// again, so validators are kept per schema text (a stored schema is a new object on every read).
const validators = new Map<string, Validator>();
const MAX_VALIDATORS = 500;

function validatorFor(schema: Record<string, unknown>): Validator {
  const text = JSON.stringify(schema);
  let validator = validators.get(text);
  if (!validator) {
    // Every error, not the first: the caller sees all it must fix.
    validator = new Validator(schema as Schema, "2020-12", false);
    if (validators.size >= MAX_VALIDATORS) validators.delete(validators.keys().next().value as string);
    validators.set(text, validator);
  }
  return validator;
}

/** undefined when `value` matches `schema`, else what is wrong, field by field. */
export function checkAgainstSchema(schema: Record<string, unknown>, value: unknown): SchemaProblems | undefined {
  const result = validatorFor(schema).validate(value);
  if (result.valid) return undefined;
  const missing = new Set<string>();
  const unknown = new Set<string>();
  const invalid: SchemaProblems["invalid_fields"] = [];
  for (const unit of result.errors as OutputUnit[]) {
    if (SUMMARY_KEYWORDS.has(unit.keyword)) continue;
    const field = fieldName(unit.instanceLocation);
    if (unit.keyword === "required") {
      const name = /"([^"]+)"/.exec(unit.error)?.[1];
      if (name) missing.add(field ? `${field}.${name}` : name);
      continue;
    }
    if (unit.keyword === "additionalProperties" || unit.keyword === "false") {
      if (field) unknown.add(field);
      continue;
    }
    invalid.push({ field: field || "(body)", problem: unit.error });
  }
  return { missing_fields: [...missing], invalid_fields: invalid, ...(unknown.size ? { unknown_fields: [...unknown] } : {}) };
}

/** One line for people: "missing image_path; quality: ...". */
export function describeProblems(problems: SchemaProblems): string {
  const parts = [
    ...(problems.missing_fields.length ? [`missing ${problems.missing_fields.join(", ")}`] : []),
    ...problems.invalid_fields.map((f) => `${f.field}: ${f.problem}`),
    ...(problems.unknown_fields?.length ? [`unknown ${problems.unknown_fields.join(", ")}`] : []),
  ];
  return parts.join("; ");
}
