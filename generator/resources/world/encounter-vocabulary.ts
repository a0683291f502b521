/** The words encounters are described with: methods, conditions and the values conditions take. */
import { EncounterCondition, EncounterConditionValue, EncounterMethod } from '../../../schemas/output/world.ts';
import { names } from '../shapes.ts';
import { defineResource } from '../define.ts';

export const encounterMethod = defineResource({
  kind: 'encounter-method',
  schema: EncounterMethod,
  emit: (method, ctx) => ({
    id: method.id,
    name: method.name,
    order: method.order,
    names: names(ctx, method.names),
  }),
  query: () => ({ filters: [], fields: ['id', 'order'] }),
});

export const encounterCondition = defineResource({
  kind: 'encounter-condition',
  schema: EncounterCondition,
  emit: (condition, ctx) => ({
    id: condition.id,
    name: condition.name,
    values: ctx.refsWhere('encounter-condition-value', 'encounter_condition_id', condition.id),
    names: names(ctx, condition.names),
  }),
});

export const encounterConditionValue = defineResource({
  kind: 'encounter-condition-value',
  schema: EncounterConditionValue,
  emit: (value, ctx) => ({
    id: value.id,
    name: value.name,
    condition: ctx.ref('encounter-condition', value.encounter_condition_id),
    names: names(ctx, value.names),
  }),
  query: (q) => ({
    filters: [q.link('condition', 'encounter-condition', 'an encounter condition', (v) => v.condition)],
    fields: ['id', 'condition'],
  }),
});
