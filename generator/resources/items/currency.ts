import { Currency } from '../../../schemas/output/items.ts';
import { names } from '../shapes.ts';
import { defineResource } from '../define.ts';

export const currency = defineResource({
  kind: 'currency',
  schema: Currency,
  emit: (currency, ctx) => ({ id: currency.id, name: currency.name, names: names(ctx, currency.names) }),
});
