/**
 * The paths `fields=` accepts below a kind's declared fields (`stats.base_stat`,
 * `types.type.name`), read from the item's output schema at build time and written into the
 * routing table (`QueryShape.below`), so the request side refuses a path the item cannot have
 * (`types.nope`, `sprites.front_default.x`) with a 400 instead of answering bare entries.
 *
 * The schema, not the data, decides: a path the schema allows but no built item holds is still
 * a path (absent from each entry, as a null on the way makes it). Arrays are transparent, as
 * projection treats them (contract/query/fields.ts); a union (`Nullable`) allows what any of its
 * non-null variants allows. A part of a declared field whose keys the schema does not list (a
 * record, a recursive or intersected shape) stops the build: it could not say which paths exist.
 */
import type { TSchema } from '@sinclair/typebox';

type Schema = Readonly<Record<string, unknown>>;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Every dotted path strictly below one of `declared` that the schema allows, each declared
 * field's paths in the schema's key order, declared order kept; none below a scalar.
 */
export function pathsBelow(kind: string, schema: TSchema, declared: readonly string[]): string[] {
  const out: string[] = [];
  for (const field of declared) {
    const at = schemaAt(schema, field.split('.'));
    if (at === undefined) throw new Error(`${kind}: the declared field ${field} is not in the item's schema`);
    collect(at, field, 0, out, `${kind}.${field}`);
  }
  // a declared field below another declared one would list paths twice
  return [...new Set(out)].filter((path) => !declared.includes(path));
}

/** At most this deep below a declared field: deeper shapes are not in the API's items. */
const MAX_DEPTH = 8;

function collect(schema: Schema, prefix: string, depth: number, out: string[], where: string): void {
  const properties = objectProperties(schema, where);
  if (properties === null) return;
  if (depth === MAX_DEPTH) throw new Error(`${where}: nested deeper than ${MAX_DEPTH} levels below a declared field`);
  for (const [key, property] of Object.entries(properties)) {
    if (!isSchema(property)) continue;
    out.push(`${prefix}.${key}`);
    collect(property, `${prefix}.${key}`, depth + 1, out, `${where}.${key}`);
  }
}

/** The keys a value of this schema may have (through arrays and unions); null for a scalar. */
function objectProperties(schema: Schema, where: string): Record<string, unknown> | null {
  if ('patternProperties' in schema || 'allOf' in schema || '$ref' in schema || isSchema(schema.additionalProperties)) {
    throw new Error(`${where}: a part of a declared field whose keys the schema does not list; declare the paths below it instead`);
  }
  if (schema.type === 'array') return isSchema(schema.items) ? objectProperties(schema.items, where) : null;
  if (isSchema(schema.properties)) return schema.properties;
  const variants = Array.isArray(schema.anyOf) ? schema.anyOf.filter(isSchema) : [];
  let merged: Record<string, unknown> | null = null;
  for (const variant of variants) {
    const properties = objectProperties(variant, where);
    if (properties !== null) merged = { ...(merged ?? {}), ...properties };
  }
  return merged;
}

/** The schema of the value at a path of objects (through arrays and unions, as `collect` goes). */
function schemaAt(schema: Schema, keys: readonly string[]): Schema | undefined {
  let at: Schema | undefined = schema;
  for (const key of keys) {
    const properties: Record<string, unknown> | null = at === undefined ? null : objectProperties(at, key);
    const next: unknown = properties !== null && Object.hasOwn(properties, key) ? properties[key] : undefined;
    at = isSchema(next) ? next : undefined;
  }
  return at;
}

/**
 * The declared fields with `names` added where the item's schema has it (every kind
 * that carries names allows it as a field), at its place in the schema's key order, which is
 * the item's (the build proves the order for every item: query-facts.ts).
 */
export function withNames(fields: readonly string[], schema: TSchema): string[] {
  const keys = isSchema(schema.properties) ? Object.keys(schema.properties) : [];
  const at = keys.indexOf('names');
  if (at < 0 || fields.some((f) => f.split('.')[0] === 'names')) return [...fields];
  const after = fields.findIndex((f) => keys.indexOf(f.split('.')[0]!) > at);
  return after < 0 ? [...fields, 'names'] : [...fields.slice(0, after), 'names', ...fields.slice(after)];
}
