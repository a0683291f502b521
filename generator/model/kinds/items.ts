import { child, defineKind } from '../define.ts';

export const item = defineKind({
  kind: 'item',
  table: 'items',
  // roseli-berry is both item 723 and item 2279 upstream
  duplicateNames: 'lowest-id-wins',
  children: {
    names: child('item_names', 'item_id'),
    prose: child('item_prose', 'item_id'),
    flavor_text: child('item_flavor_text', 'item_id'),
    game_indices: child('item_game_indices', 'item_id'),
    flags: child('item_flag_map', 'item_id'),
    prices: child('item_prices', 'item_id'),
  },
});

export const itemAttribute = defineKind({
  kind: 'item-attribute',
  table: 'item_flags',
  children: { prose: child('item_flag_prose', 'item_flag_id') },
});

export const itemCategory = defineKind({
  kind: 'item-category',
  table: 'item_categories',
  children: { prose: child('item_category_prose', 'item_category_id') },
});

export const itemFlingEffect = defineKind({
  kind: 'item-fling-effect',
  table: 'item_fling_effects',
  children: { prose: child('item_fling_effect_prose', 'item_fling_effect_id') },
});

export const itemPocket = defineKind({
  kind: 'item-pocket',
  table: 'item_pockets',
  children: { names: child('item_pocket_names', 'item_pocket_id') },
});

export const berry = defineKind({
  kind: 'berry',
  table: 'berries',
  // A berry is named by the first word of its item's identifier (cheri-berry → cheri), as upstream does.
  name: (row, tables) => (tables.byId('items').get(row.item_id)?.identifier ?? '').split('-')[0] ?? '',
  children: { flavors: child('berry_flavors', 'berry_id') },
});

export const berryFirmness = defineKind({
  kind: 'berry-firmness',
  table: 'berry_firmness',
  children: { names: child('berry_firmness_names', 'berry_firmness_id') },
});

export const berryFlavor = defineKind({
  kind: 'berry-flavor',
  // A berry flavor is the contest type it goes with, named by that type's flavor word.
  table: 'contest_types',
  name: (row, tables) => {
    const english = tables.rows('contest_type_names').find((n) => n.contest_type_id === row.id && n.local_language_id === 9);
    return (english?.flavor ?? '').toLowerCase();
  },
  children: { names: child('contest_type_names', 'contest_type_id') },
});

export const currency = defineKind({
  kind: 'currency',
  table: 'currencies',
  children: { names: child('currency_names', 'id') },
});

export const kinds = [item, itemAttribute, itemCategory, itemFlingEffect, itemPocket, berry, berryFirmness, berryFlavor, currency] as const;
