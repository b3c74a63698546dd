// JSON Schemas sent to a model under OpenAI's strict structured-output rules. Strict mode
// accepts a subset of JSON Schema: every object lists all its keys in `required` (an optional
// value is expressed as nullable), sets `additionalProperties: false`, and uses only the
// keywords OpenAI documents as supported. Length limits (`minLength`, `maxLength`) are not in
// that subset, so they are dropped from what is sent and enforced after parsing by the zod
// schema the JSON Schema was made from: the model is guided by the schema, the server decides.
import type { JSONSchema7 } from "@ai-sdk/provider";

type JSONSchema7Definition = JSONSchema7 | boolean;

/** Keywords OpenAI documents for strict mode (types, composition, and per-type constraints). */
export const STRICT_MODE_KEYWORDS: ReadonlySet<string> = new Set([
  "$schema",
  "$ref",
  "$defs",
  "definitions",
  "title",
  "description",
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "anyOf",
  "pattern",
  "format",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "minItems",
  "maxItems",
]);

/** Keywords the server enforces itself after parsing; safe to leave out of what is sent. */
const ENFORCED_AFTER_PARSING: ReadonlySet<string> = new Set(["minLength", "maxLength", "propertyNames"]);

function acceptsNull(schema: JSONSchema7Definition): boolean {
  if (typeof schema === "boolean") return schema;
  if (schema.type === "null" || (Array.isArray(schema.type) && schema.type.includes("null"))) return true;
  return (schema.anyOf ?? []).some(acceptsNull);
}

function strictDefinition(schema: JSONSchema7Definition, at: string): JSONSchema7Definition {
  if (typeof schema === "boolean") throw new Error(`${at}: a boolean schema cannot be strict`);
  return toStrictJsonSchema(schema, at);
}

/**
 * Returns `schema` in strict form, or throws naming the place that cannot be strict (an open
 * object, an optional key that does not accept null, a keyword the server does not enforce).
 * It throws rather than quietly sending a non-strict schema: that choice is made per schema,
 * in code, where the tool or output is declared.
 */
export function toStrictJsonSchema(schema: JSONSchema7, at = "(root)"): JSONSchema7 {
  const result: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (ENFORCED_AFTER_PARSING.has(keyword)) continue;
    if (!STRICT_MODE_KEYWORDS.has(keyword)) throw new Error(`${at}: keyword "${keyword}" is not allowed in strict mode`);
    result[keyword] = value;
  }
  const properties = schema.properties;
  if (schema.type === "object" || properties) {
    if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) {
      throw new Error(`${at}: an open object (additionalProperties) cannot be strict`);
    }
    const required = new Set(schema.required ?? []);
    const strictProperties: Record<string, JSONSchema7Definition> = {};
    for (const [key, property] of Object.entries(properties ?? {})) {
      if (!required.has(key) && !acceptsNull(property)) throw new Error(`${at}.${key}: an optional key must accept null to be strict`);
      strictProperties[key] = strictDefinition(property, `${at}.${key}`);
    }
    result.properties = strictProperties;
    result.required = Object.keys(strictProperties);
    result.additionalProperties = false;
  }
  if (schema.items !== undefined) {
    result.items = Array.isArray(schema.items)
      ? schema.items.map((item: JSONSchema7Definition, i: number) => strictDefinition(item, `${at}[${i}]`))
      : strictDefinition(schema.items, `${at}[]`);
  }
  if (schema.anyOf) result.anyOf = schema.anyOf.map((option: JSONSchema7Definition, i: number) => strictDefinition(option, `${at}|${i}`));
  for (const keyword of ["$defs", "definitions"] as const) {
    const definitions = schema[keyword as "definitions"];
    if (definitions)
      result[keyword] = Object.fromEntries(Object.entries(definitions).map(([name, d]) => [name, strictDefinition(d, `${at}#${name}`)]));
  }
  return result as JSONSchema7;
}
