// OpenAI's published rules for strict structured outputs, checked the way the API checks them
// before any generation: written from OpenAI's documentation, independently of the product's
// own conversion, so a schema the product sends strict is judged by the provider's rules and
// not by the code that made it. Answers the first violation as OpenAI words it, or undefined.
//
// The rules (OpenAI "Structured Outputs", supported schemas):
// - the root is an object, not anyOf;
// - every object sets additionalProperties: false and lists every property in `required`;
// - only these keywords: type, properties, required, additionalProperties, items, enum, const,
//   anyOf, $ref, $defs/definitions, title/description/$schema, and per type: string pattern and
//   format; number multipleOf, minimum, maximum, exclusiveMinimum, exclusiveMaximum; array
//   minItems, maxItems. Not supported: allOf, oneOf, not, if/then/else, minLength/maxLength,
//   patternProperties, propertyNames, min/maxProperties, uniqueItems, contains, default, ...;
// - at most 10 levels of nesting and 5000 properties in all.

const SUPPORTED = new Set([
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
const MAX_DEPTH = 10;
const MAX_PROPERTIES = 5000;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const context = (path: readonly string[]) => `(${path.map((p) => `'${p}'`).join(", ")}${path.length === 1 ? "," : ""})`;

export function strictSchemaViolation(schema: unknown): string | undefined {
  if (!isObject(schema)) return "In context=(), schema must be a JSON Schema of 'type: \"object\"', got 'type: \"None\"'.";
  if (schema.type !== "object" || "anyOf" in schema)
    return `In context=(), schema must be a JSON Schema of 'type: "object"', got 'type: "${String(schema.type ?? "None")}"'.`;
  let properties = 0;
  const visit = (node: unknown, path: string[], depth: number): string | undefined => {
    if (!isObject(node)) return `In context=${context(path)}, schema must be an object.`;
    if (depth > MAX_DEPTH) return `In context=${context(path)}, schema exceeds the maximum nesting depth of ${MAX_DEPTH}.`;
    for (const keyword of Object.keys(node)) {
      if (!SUPPORTED.has(keyword)) return `In context=${context(path)}, '${keyword}' is not permitted.`;
    }
    const isObjectType = node.type === "object" || (Array.isArray(node.type) && node.type.includes("object"));
    if (isObjectType || "properties" in node) {
      if (node.additionalProperties !== false)
        return `In context=${context(path)}, 'additionalProperties' is required to be supplied and to be false.`;
      const keys = Object.keys(isObject(node.properties) ? node.properties : {});
      properties += keys.length;
      if (properties > MAX_PROPERTIES) return `In context=${context(path)}, schema has more than ${MAX_PROPERTIES} properties.`;
      const required = Array.isArray(node.required) ? node.required : [];
      const missing = keys.find((key) => !required.includes(key));
      if (missing !== undefined || !Array.isArray(node.required)) {
        return `In context=${context(path)}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing ?? keys[0] ?? ""}'.`;
      }
      for (const key of keys) {
        const problem = visit((node.properties as Json)[key], [...path, "properties", key], depth + 1);
        if (problem) return problem;
      }
    }
    if (node.items !== undefined) {
      const problem = visit(node.items, [...path, "items"], depth + 1);
      if (problem) return problem;
    }
    if (node.anyOf !== undefined) {
      if (!Array.isArray(node.anyOf)) return `In context=${context(path)}, 'anyOf' must be an array.`;
      for (const [i, option] of node.anyOf.entries()) {
        const problem = visit(option, [...path, "anyOf", String(i)], depth + 1);
        if (problem) return problem;
      }
    }
    for (const keyword of ["$defs", "definitions"]) {
      if (!isObject(node[keyword])) continue;
      for (const [name, definition] of Object.entries(node[keyword] as Json)) {
        const problem = visit(definition, [...path, keyword, name], depth + 1);
        if (problem) return problem;
      }
    }
    return undefined;
  };
  return visit(schema, [], 0);
}
