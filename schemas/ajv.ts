/** One ajv set-up for every schema of the project, input and output. */
import { Ajv } from 'ajv';
import type { TSchema } from '@sinclair/typebox';

export function createAjv(): Ajv {
  const ajv = new Ajv({ allErrors: false, strict: true, allowUnionTypes: true });
  // annotations of the table declarations (schemas/columns.ts); they do not validate anything
  ajv.addKeyword({ keyword: 'x-references', schemaType: 'string' });
  ajv.addKeyword({ keyword: 'x-primary-key', schemaType: 'boolean' });
  // every link the service writes is absolute http(s); that is all `uri` needs to say here
  ajv.addFormat('uri', /^https?:\/\/[^\s]+$/);
  return ajv;
}

/** Compiles a schema into a function that returns null or a readable account of the first error. */
export function validatorFor(ajv: Ajv, schema: TSchema): (value: unknown) => string | null {
  const validate = ajv.compile(schema);
  return (value) => {
    if (validate(value)) return null;
    const e = validate.errors?.[0];
    return e ? `${e.instancePath || '/'} ${e.message ?? 'is invalid'}${e.params ? ` ${JSON.stringify(e.params)}` : ''}` : 'is invalid';
  };
}
