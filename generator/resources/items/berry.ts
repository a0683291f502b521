/** Berries, their firmness and their flavors (a flavor is the upstream's contest type seen from the berry side). */
import { Berry, BerryFirmness, BerryFlavor } from '../../../schemas/output/berries.ts';
import { names } from '../shapes.ts';
import { defineResource } from '../define.ts';

export const berry = defineResource({
  kind: 'berry',
  schema: Berry,
  emit: (berry, ctx) => ({
    id: berry.id,
    name: berry.name,
    growth_time: berry.growth_time,
    max_harvest: berry.max_harvest,
    natural_gift_power: berry.natural_gift_power,
    size: berry.size,
    smoothness: berry.smoothness,
    soil_dryness: berry.soil_dryness,
    firmness: ctx.refOrNull('berry-firmness', berry.firmness_id),
    // every flavor, potency 0 included, in table order
    flavors: berry.flavors.map((f) => ({ potency: f.flavor, flavor: ctx.ref('berry-flavor', f.contest_type_id) })),
    item: ctx.ref('item', berry.item_id),
    natural_gift_type: ctx.refOrNull('type', berry.natural_gift_type_id),
  }),
  query: (q) => ({
    filters: [
      q.link('firmness', 'berry-firmness', 'a berry firmness', (b) => b.firmness),
      q.link('natural_gift_type', 'type', 'a type', (b) => b.natural_gift_type),
    ],
    ranges: [
      q.integer('growth_time', 'hours per growth stage (berries without a figure match no range)'),
      q.integer('max_harvest', 'most berries a tree bears (berries without a figure match no range)'),
      q.integer('natural_gift_power', 'power of Natural Gift with it (berries without a figure match no range)'),
      q.integer('size', 'size in millimetres (berries without a figure match no range)'),
      q.integer('smoothness', 'smoothness (berries without a figure match no range)'),
      q.integer('soil_dryness', 'how fast the tree dries the soil (berries without a figure match no range)'),
    ],
    fields: ['id', 'growth_time', 'max_harvest', 'natural_gift_power', 'size', 'smoothness', 'soil_dryness', 'firmness', 'item', 'natural_gift_type'],
  }),
});

export const berryFirmness = defineResource({
  kind: 'berry-firmness',
  schema: BerryFirmness,
  emit: (firmness, ctx) => ({
    id: firmness.id,
    name: firmness.name,
    berries: ctx.refsWhere('berry', 'firmness_id', firmness.id),
    names: names(ctx, firmness.names),
  }),
});

export const berryFlavor = defineResource({
  kind: 'berry-flavor',
  schema: BerryFlavor,
  emit: (flavor, ctx) => ({
    id: flavor.id,
    name: flavor.name,
    // Only the berries that have some of the flavor, mildest first; among equals, by berry id
    // (the upstream sorts by potency alone and its rows run by berry id).
    berries: (ctx.childrenBy('berry', 'flavors', 'contest_type_id').get(flavor.id) ?? [])
      .filter(({ row }) => row.flavor > 0)
      .map(({ owner, row }) => ({ potency: row.flavor, berry: ctx.ref('berry', owner.id) }))
      .sort((a, b) => a.potency - b.potency),
    contest_type: ctx.ref('contest-type', flavor.id),
    // a flavor's names are the flavor words of its contest type's names
    names: names(
      ctx,
      flavor.names.map((n) => ({ local_language_id: n.local_language_id, name: n.flavor })),
    ),
  }),
  query: (q) => ({
    filters: [q.link('contest_type', 'contest-type', 'a contest type', (f) => f.contest_type)],
    fields: ['id', 'contest_type'],
  }),
});
