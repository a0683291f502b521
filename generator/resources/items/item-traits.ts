/** The resources that classify items: attributes, categories, pockets and fling effects. */
import { ItemAttribute, ItemCategory, ItemFlingEffect, ItemPocket } from '../../../schemas/output/items.ts';
import { descriptions, effects, names } from '../shapes.ts';
import { defineResource } from '../define.ts';

export const itemAttribute = defineResource({
  kind: 'item-attribute',
  schema: ItemAttribute,
  emit: (attribute, ctx) => ({
    id: attribute.id,
    name: attribute.name,
    descriptions: descriptions(ctx, attribute.prose),
    // item order: the upstream lists the attribute map's rows, which run by item id
    items: (ctx.childrenBy('item', 'flags', 'item_flag_id').get(attribute.id) ?? []).map(({ owner }) => ctx.ref('item', owner.id)),
    names: names(ctx, attribute.prose),
  }),
});

export const itemCategory = defineResource({
  kind: 'item-category',
  schema: ItemCategory,
  emit: (category, ctx) => ({
    id: category.id,
    name: category.name,
    items: ctx.refsWhere('item', 'category_id', category.id),
    names: names(ctx, category.prose),
    pocket: ctx.ref('item-pocket', category.pocket_id),
  }),
  query: (q) => ({
    filters: [q.link('pocket', 'item-pocket', 'an item pocket', (c) => c.pocket)],
    fields: ['id', 'pocket'],
  }),
});

export const itemFlingEffect = defineResource({
  kind: 'item-fling-effect',
  schema: ItemFlingEffect,
  emit: (effect, ctx) => ({
    id: effect.id,
    name: effect.name,
    effect_entries: effects(ctx, effect.prose),
    items: ctx.refsWhere('item', 'fling_effect_id', effect.id),
  }),
});

export const itemPocket = defineResource({
  kind: 'item-pocket',
  schema: ItemPocket,
  emit: (pocket, ctx) => ({
    id: pocket.id,
    name: pocket.name,
    categories: ctx.refsWhere('item-category', 'pocket_id', pocket.id),
    names: names(ctx, pocket.names),
  }),
});
