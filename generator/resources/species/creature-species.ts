import { CreatureSpecies } from '../../../schemas/output/species.ts';
import { descriptions, flavorTextsByVersion, languageId, names } from '../shapes.ts';
import { idsInOrder } from '../../lists.ts';
import { defineResource } from '../define.ts';
import type { BuildContext } from '../context.ts';
import type { KindName, RecordOf } from '../../model/kinds.ts';
import type { Static } from '@sinclair/typebox';
import type { QueryShapes } from '../query.ts';

type SpeciesRecord = RecordOf<'creature-species'>;

/** The species' links that its creatures are filtered by too (`creature/?generation=3`): made here once for both. */
export const speciesLinks = {
  generation: (ctx: BuildContext, species: SpeciesRecord) => ctx.ref('generation', species.generation_id),
  color: (ctx: BuildContext, species: SpeciesRecord) => ctx.ref('creature-color', species.color_id),
  shape: (ctx: BuildContext, species: SpeciesRecord) => ctx.ref('creature-shape', species.shape_id),
  habitat: (ctx: BuildContext, species: SpeciesRecord) => ctx.refOrNull('creature-habitat', species.habitat_id),
  // by group id, each once: the upstream's code orders them so since its commit 42d9fe1b (table row order before)
  egg_groups: (ctx: BuildContext, species: SpeciesRecord) => idsInOrder(species.egg_groups.map((g) => g.egg_group_id)).map((id) => ctx.ref('egg-group', id)),
};

/** The species' fields its filters and ranges read, in any item that holds them as the species has them (the species', an entry's). */
type SpeciesFields = Pick<
  Static<typeof CreatureSpecies>,
  'generation' | 'color' | 'shape' | 'habitat' | 'egg_groups' | 'growth_rate' | 'is_legendary' | 'is_mythical' | 'is_baby'
> &
  Record<'base_happiness' | 'capture_rate' | 'gender_rate' | 'hatch_counter', number | null>;

/** The species' value filters, of an item that holds its fields; `whose` (` of its species`) says whose they are where they are not the item's own. */
export const speciesFilters = <K extends KindName, I extends SpeciesFields>(q: QueryShapes<K, I>, whose: string) => [
  q.link('generation', 'generation', `${whose ? 'the' : 'a'} generation${whose}`, (s) => s.generation),
  q.link('color', 'creature-color', `${whose ? 'the' : 'a'} color${whose}`, (s) => s.color),
  q.link('shape', 'creature-shape', `${whose ? 'the' : 'a'} shape${whose}`, (s) => s.shape),
  q.link('habitat', 'creature-habitat', `${whose ? 'the' : 'a'} habitat${whose}`, (s) => s.habitat),
  q.links('egg_group', 'egg-group', `an egg group${whose}`, (s) => s.egg_groups),
  q.link('growth_rate', 'growth-rate', `${whose ? 'the' : 'a'} growth rate${whose}`, (s) => s.growth_rate),
  q.yesNo('is_legendary', (s) => s.is_legendary),
  q.yesNo('is_mythical', (s) => s.is_mythical),
  q.yesNo('is_baby', (s) => s.is_baby),
];

/** The species' ranges on its own figures, of an item that holds them (`whose` as in speciesFilters). */
export const speciesRanges = <K extends KindName, I extends SpeciesFields>(q: QueryShapes<K, I>, whose: string) => [
  q.range('base_happiness', `base happiness${whose} (species without a figure match no range)`, (s) => s.base_happiness),
  q.range('capture_rate', `capture rate${whose}, 0–255 (species without a figure match no range)`, (s) => s.capture_rate),
  q.range('gender_rate', 'chance of being female in eighths, -1 for genderless (species without a figure match no range)', (s) => s.gender_rate),
  q.range('hatch_counter', 'egg cycles to hatch (species without a figure match no range)', (s) => s.hatch_counter),
];

export const creatureSpecies = defineResource({
  kind: 'creature-species',
  schema: CreatureSpecies,
  emit: (species, ctx) => ({
    id: species.id,
    name: species.name,
    order: species.order,
    gender_rate: species.gender_rate,
    capture_rate: species.capture_rate,
    base_happiness: species.base_happiness,
    hatch_counter: species.hatch_counter,
    is_baby: species.is_baby,
    is_legendary: species.is_legendary,
    is_mythical: species.is_mythical,
    has_gender_differences: species.has_gender_differences,
    forms_switchable: species.forms_switchable,
    growth_rate: ctx.ref('growth-rate', species.growth_rate_id),
    pokedex_numbers: species.dex_numbers.map((n) => ({ entry_number: n.pokedex_number, pokedex: ctx.ref('pokedex', n.pokedex_id) })),
    egg_groups: speciesLinks.egg_groups(ctx, species),
    color: speciesLinks.color(ctx, species),
    shape: speciesLinks.shape(ctx, species),
    evolves_from_species: ctx.refOrNull('creature-species', species.evolves_from_species_id),
    evolution_chain: ctx.resource('evolution-chain', species.evolution_chain_id),
    habitat: speciesLinks.habitat(ctx, species),
    generation: speciesLinks.generation(ctx, species),
    names: names(ctx, species.names),
    pal_park_encounters: species.pal_park.map((p) => ({ base_score: p.base_score, rate: p.rate, area: ctx.ref('pal-park-area', p.area_id) })),
    form_descriptions: descriptions(
      ctx,
      species.prose.map((p) => ({ ...p, description: p.form_description })),
    ),
    flavor_text_entries: flavorTextsByVersion(ctx, species.flavor_text),
    // a name row without a genus (the romanized names, say) gives no entry
    genera: species.names.flatMap((n) => (n.genus ? [{ genus: n.genus, language: ctx.ref('language', languageId(n)) }] : [])),
    varieties: (ctx.groupBy('creature', 'species_id').get(species.id) ?? []).map((c) => ({
      is_default: c.is_default,
      creature: ctx.ref('creature', c.id),
    })),
  }),
  query: (q) => ({
    filters: speciesFilters(q, ''),
    ranges: [...speciesRanges(q, ''), q.integer('order', 'sort order (evolution families together)')],
    fields: [
      'id',
      'order',
      'gender_rate',
      'capture_rate',
      'base_happiness',
      'hatch_counter',
      'is_baby',
      'is_legendary',
      'is_mythical',
      'growth_rate',
      'egg_groups',
      'color',
      'shape',
      'evolves_from_species',
      'habitat',
      'generation',
    ],
  }),
});
