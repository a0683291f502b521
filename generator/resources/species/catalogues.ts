/** The catalogues that list species: Pal Park areas and Pokédexes. */
import { PalParkArea, Pokedex } from '../../../schemas/output/species.ts';
import { descriptions, names } from '../shapes.ts';
import { idsInOrder, sortedBy } from '../../lists.ts';
import { defineResource } from '../define.ts';

export const palParkArea = defineResource({
  kind: 'pal-park-area',
  schema: PalParkArea,
  emit: (area, ctx) => ({
    id: area.id,
    name: area.name,
    names: names(ctx, area.names),
    creature_encounters: (ctx.childrenBy('creature-species', 'pal_park', 'area_id').get(area.id) ?? []).map(({ owner, row }) => ({
      base_score: row.base_score,
      rate: row.rate,
      creature_species: ctx.ref('creature-species', owner.id),
    })),
  }),
});

export const pokedex = defineResource({
  kind: 'pokedex',
  schema: Pokedex,
  emit: (dex, ctx) => ({
    id: dex.id,
    name: dex.name,
    is_main_series: dex.is_main_series,
    // the upstream makes a description of every prose row, an empty one included
    descriptions: descriptions(
      ctx,
      dex.prose.map((p) => ({ ...p, description: p.description ?? '' })),
    ),
    names: names(ctx, dex.prose),
    creature_entries: sortedBy(ctx.childrenBy('creature-species', 'dex_numbers', 'pokedex_id').get(dex.id) ?? [], ({ row }) => row.pokedex_number).map(
      ({ owner, row }) => ({ entry_number: row.pokedex_number, creature_species: ctx.ref('creature-species', owner.id) }),
    ),
    region: ctx.refOrNull('region', dex.region_id),
    // by version group id, each once (the upstream's order since its commit 42d9fe1b; table row order before)
    version_groups: idsInOrder(dex.version_groups.map((v) => v.version_group_id)).map((id) => ctx.ref('version-group', id)),
  }),
  query: (q) => ({
    filters: [
      q.yesNo('is_main_series', (d) => d.is_main_series),
      q.link('region', 'region', 'a region', (d) => d.region),
      q.links('version_group', 'version-group', 'a version group', (d) => d.version_groups),
    ],
    fields: ['id', 'is_main_series', 'region', 'version_groups'],
  }),
});
