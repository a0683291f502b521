/**
 * Column kinds of the upstream CSV tables. Each is a JSON Schema (TypeBox), so the same
 * declaration types the record in TypeScript, validates it with ajv, and tells the CSV
 * reader how to read the cell. `x-references` names the table a foreign key points into.
 */
import { Type, type TSchema } from '@sinclair/typebox';

export type TableName = keyof typeof import('./tables.ts').tables;

const nullableOf = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** The table's own primary key. */
export const id = Type.Integer({ 'x-primary-key': true });
export const int = Type.Integer();
export const float = Type.Number();
export const bool = Type.Boolean();
export const str = Type.String();

export const nullable = {
  int: nullableOf(Type.Integer()),
  float: nullableOf(Type.Number()),
  bool: nullableOf(Type.Boolean()),
  str: nullableOf(Type.String()),
};

/** A foreign key; the loader checks that the referenced row exists. */
export const ref = (table: string) => Type.Integer({ 'x-references': table });
export const nullableRef = (table: string) => nullableOf(ref(table));

/** What the CSV reader needs to know about a column, read off its schema. */
export interface ColumnInfo {
  parse: 'integer' | 'number' | 'boolean' | 'string';
  nullable: boolean;
  references?: string;
  primaryKey: boolean;
}

export function columnInfo(schema: TSchema): ColumnInfo {
  const variants: TSchema[] = 'anyOf' in schema ? (schema.anyOf as TSchema[]) : [schema];
  const nullableVariant = variants.some((v) => v.type === 'null');
  const value = variants.find((v) => v.type !== 'null');
  if (!value) throw new Error('column schema has no value type');
  const parse = value.type as ColumnInfo['parse'];
  const references = value['x-references'] as string | undefined;
  return { parse, nullable: nullableVariant, primaryKey: value['x-primary-key'] === true, ...(references ? { references } : {}) };
}
