// An example of a call's params, built from the tool's input schema, so an agent that finds a
// tool through /agent/chat sees how to call it: each property's own example, default or first
// allowed value if the schema gives one, else a value of its type. Required properties first.
// Pure.

type Property = { type?: unknown; examples?: unknown; default?: unknown; enum?: unknown; minimum?: unknown; description?: unknown };

function exampleValue(name: string, property: Property): unknown {
  if (Array.isArray(property.examples) && property.examples.length > 0) return property.examples[0];
  if (property.default !== undefined) return property.default;
  if (Array.isArray(property.enum) && property.enum.length > 0) return property.enum[0];
  const type = Array.isArray(property.type) ? property.type.find((t) => t !== "null") : property.type;
  switch (type) {
    case "integer":
    case "number":
      return typeof property.minimum === "number" ? property.minimum : 1;
    case "boolean":
      return true;
    case "array":
      return [];
    case "object":
      return {};
    default:
      return `<${name}>`;
  }
}

export function usageExample(inputSchema: unknown, maxProperties = 10): { params: Record<string, unknown> } {
  const schema = (inputSchema ?? {}) as { properties?: unknown; required?: unknown };
  const properties = schema.properties && typeof schema.properties === "object" ? (schema.properties as Record<string, Property>) : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((n): n is string => typeof n === "string") : []);
  const names = Object.keys(properties).sort((a, b) => Number(required.has(b)) - Number(required.has(a)));
  const params: Record<string, unknown> = {};
  for (const name of names.slice(0, maxProperties)) params[name] = exampleValue(name, properties[name] ?? {});
  return { params };
}
