/** Finds the properties of a set of JSON Schemas that say nothing about what they mean. */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (value: Json | undefined): value is { [key: string]: Json } => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Every property, at any depth (nested objects, array items, anyOf/allOf/oneOf variants,
 * additional and pattern properties), without a non-empty `description`, as
 * `Component.path.to.property`. Array items and union variants add `[]` and `|n` to the path.
 */
export function undescribedProperties(schemas: Record<string, Json>): string[] {
  const missing: string[] = [];
  const walk = (schema: Json | undefined, path: string) => {
    if (!isObject(schema)) return;
    if (isObject(schema.properties)) {
      for (const [key, value] of Object.entries(schema.properties)) {
        const at = `${path}.${key}`;
        if (!isObject(value) || typeof value.description !== 'string' || value.description.trim().length < 10) missing.push(at);
        walk(value, at);
      }
    }
    for (const keyword of ['anyOf', 'allOf', 'oneOf', 'prefixItems'] as const) {
      const list = schema[keyword];
      if (Array.isArray(list)) list.forEach((variant, i) => walk(variant, `${path}|${i}`));
    }
    walk(schema.items, `${path}[]`);
    walk(schema.additionalProperties, `${path}{}`);
    if (isObject(schema.patternProperties)) for (const value of Object.values(schema.patternProperties)) walk(value, `${path}{}`);
  };
  for (const [name, schema] of Object.entries(schemas)) walk(schema, name);
  return missing;
}
