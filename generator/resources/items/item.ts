import type { ItemFlavorText, ItemHolder, ItemPrice } from '../../../schemas/output/items.ts';
import { Item } from '../../../schemas/output/items.ts';
import type { BuildContext } from '../context.ts';
import { generationGameIndices, heldItemVersionDetails, machineVersionDetails, names, verboseEffects } from '../shapes.ts';
import { runsOf } from '../../lists.ts';
import type { RecordOf } from '../../model/kinds.ts';
import { defineResource } from '../define.ts';

type ItemRecord = RecordOf<'item'>;

/**
 * The sprite file of an item, named by its upstream identifier (so `pokemon-box`, not the
 * public name). The upstream draws every TM, every HM and every data card with one shared
 * picture each, whatever the number.
 */
export function itemSpritePath(identifier: string): string {
  if (/^data-card/.test(identifier)) return 'sprites/items/data-card.png';
  if (/^tm[0-9]/.test(identifier)) return 'sprites/items/tm-normal.png';
  if (/^hm[0-9]/.test(identifier)) return 'sprites/items/hm-normal.png';
  return `sprites/items/${identifier}.png`;
}

const flavorTexts = (ctx: BuildContext, item: ItemRecord): ItemFlavorText[] =>
  item.flavor_text.map((r) => ({
    // a few entries are empty in the games; the upstream lists them with an empty text
    text: r.flavor_text ?? '',
    language: ctx.ref('language', r.language_id),
    version_group: ctx.ref('version-group', r.version_group_id),
  }));

/** The creatures found holding the item: one entry per creature, in creature id order. */
function holders(ctx: BuildContext, item: ItemRecord): ItemHolder[] {
  const held = ctx.childrenBy('creature', 'held_items', 'item_id').get(item.id) ?? [];
  return runsOf(held, ({ owner }) => owner.id).map(([creatureId, rows]) => ({
    creature: ctx.ref('creature', creatureId),
    version_details: heldItemVersionDetails(
      ctx,
      rows.map(({ row }) => row),
    ),
  }));
}

const prices = (ctx: BuildContext, item: ItemRecord): ItemPrice[] =>
  item.prices.map((p) => ({
    currency: ctx.ref('currency', p.currency_id),
    purchase_price: p.purchase_price,
    sell_price: p.sell_price,
    version_group: ctx.ref('version-group', p.version_group_id),
  }));

/**
 * The evolution chain whose baby is only bred while a parent holds this item. Each such item
 * triggers one chain at most in the data; were there two, the first by id answers.
 */
const babyTriggerFor = (ctx: BuildContext, item: ItemRecord) => {
  const chain = ctx.groupBy('evolution-chain', 'baby_trigger_item_id').get(item.id)?.[0];
  return chain ? ctx.resource('evolution-chain', chain.id) : null;
};

export const item = defineResource({
  kind: 'item',
  schema: Item,
  emit: (item, ctx) => ({
    id: item.id,
    name: item.name,
    fling_power: item.fling_power,
    fling_effect: ctx.refOrNull('item-fling-effect', item.fling_effect_id),
    attributes: item.flags.map((f) => ctx.ref('item-attribute', f.item_flag_id)),
    category: ctx.ref('item-category', item.category_id),
    effect_entries: verboseEffects(ctx, item.prose),
    flavor_text_entries: flavorTexts(ctx, item),
    game_indices: generationGameIndices(ctx, item.game_indices),
    names: names(ctx, item.names),
    held_by_creature: holders(ctx, item),
    sprites: { default: ctx.sprite(itemSpritePath(item.identifier)) },
    baby_trigger_for: babyTriggerFor(ctx, item),
    // the machines (TMs, HMs, TRs) this item is, in machine id order
    machines: machineVersionDetails(ctx, ctx.groupBy('machine', 'item_id').get(item.id) ?? []),
    prices: prices(ctx, item),
  }),
  query: (q) => ({
    filters: [
      q.link('category', 'item-category', 'an item category', (i) => i.category),
      q.links('attribute', 'item-attribute', 'an item attribute', (i) => i.attributes),
      q.link('fling_effect', 'item-fling-effect', 'a fling effect', (i) => i.fling_effect),
    ],
    ranges: [
      // the data set's one price of the item (its per-game prices are in `prices`)
      q.range('cost', 'cost in the shop, as the data set gives one price', (_, s) => s.record.cost),
      q.integer('fling_power', 'power of Fling with it (items without one match no range)'),
    ],
    fields: ['id', 'fling_power', 'fling_effect', 'attributes', 'category', 'sprites.default'],
  }),
});
