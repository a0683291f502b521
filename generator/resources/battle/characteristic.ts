import { Characteristic } from '../../../schemas/output/battle.ts';
import { descriptions } from '../shapes.ts';
import { defineResource } from '../define.ts';

/** The highest individual value a stat can have. */
const MAX_INDIVIDUAL_VALUE = 31;
/** A characteristic shows when the highest individual value, modulo this, is the gene modulo. */
const GENE_DIVISOR = 5;

/** The individual values that leave `modulo` when divided by five: modulo, modulo + 5, ... up to 31. */
export function possibleValues(modulo: number): number[] {
  const values: number[] = [];
  for (let value = modulo; value <= MAX_INDIVIDUAL_VALUE; value += GENE_DIVISOR) values.push(value);
  return values;
}

export const characteristic = defineResource({
  kind: 'characteristic',
  schema: Characteristic,
  emit: (characteristic, ctx) => ({
    id: characteristic.id,
    gene_modulo: characteristic.gene_mod_5,
    possible_values: possibleValues(characteristic.gene_mod_5),
    highest_stat: ctx.ref('stat', characteristic.stat_id),
    descriptions: descriptions(
      ctx,
      characteristic.descriptions.map((d) => ({ description: d.message, local_language_id: d.local_language_id })),
    ),
  }),
  query: (q) => ({
    filters: [q.link('highest_stat', 'stat', 'a stat', (c) => c.highest_stat)],
    fields: ['id', 'gene_modulo', 'possible_values', 'highest_stat'],
  }),
});
