/**
 * The entry: a creature with its species, its forms and its place in its evolution chain, in one
 * answer. What it copies is made by the same code as the creature's, species' and forms' own
 * documents, so it is theirs verbatim.
 */
import { Entry } from '../../../schemas/output/entry.ts';
import type { BuildContext } from '../context.ts';
import { resourceUrl } from '../context.ts';
import type { RecordOf } from '../../model/kinds.ts';
import { defineResource } from '../define.ts';
import { creatureSpecies, speciesFilters, speciesRanges } from '../species/creature-species.ts';
import { evolutionPlace } from '../species/evolution.ts';
import { creatureAbilities, creatureNames, creatureStats, creatureTypes, cries, speciesOf, statRanges } from './creature.ts';
import type { Static } from '@sinclair/typebox';
import type { NamedResource } from '../../../schemas/output/common.ts';
import type { QueryDecl, QueryShapes } from '../query.ts';
import { formName } from './creature-form.ts';
import { creatureSprites } from './sprites.ts';

type CreatureRecord = RecordOf<'creature'>;

/** The creature's forms in its own order (its `forms`), each with what tells them apart. */
const forms = (ctx: BuildContext, c: CreatureRecord) =>
  (ctx.groupBy('creature-form', 'creature_id').get(c.id) ?? []).map((form) => ({
    name: form.name,
    url: resourceUrl(ctx.baseUrl, 'creature-form', form.id),
    form_name: formName(form),
    is_default: form.is_default,
    is_mega: form.is_mega,
    is_battle_only: form.is_battle_only,
  }));

type EntryItem = Static<typeof Entry>;

/** The species' fields an entry holds as its species' document has them, in the entry's order (its dex text last but its sprites and cries). */
const SPECIES_FIELDS = [
  'generation',
  'color',
  'shape',
  'habitat',
  'egg_groups',
  'growth_rate',
  'gender_rate',
  'capture_rate',
  'base_happiness',
  'hatch_counter',
  'is_baby',
  'is_legendary',
  'is_mythical',
  'names',
  'genera',
  'pokedex_numbers',
  'varieties',
] as const;

/** `keys` of `from`, in that order. */
const picked = <T, K extends keyof T>(from: T, keys: readonly K[]): Pick<T, K> => Object.fromEntries(keys.map((key) => [key, from[key]])) as Pick<T, K>;

/** Each link once, in the order first met (a trigger repeats across version groups). */
const distinct = (links: readonly NamedResource[]) => links.filter((l, i) => links.findIndex((m) => m.url === l.url) === i);

/** The creature's filters and ranges and its species', under their names there, and the entry's own (`stage`, `evolution_trigger`). */
const query = (q: QueryShapes<'entry', EntryItem>): QueryDecl<'entry', EntryItem> => ({
  filters: [
    q.links('type', 'type', 'a type', (e) => e.types.map((t) => t.type)),
    q.links('ability', 'ability', 'an ability (hidden ones too)', (e) => e.abilities.map((a) => a.ability)),
    // the entry does not copy the moves, nor does its index: the creature's, position for position
    q.borrowed('move', 'move', 'a move it can learn', 'creature'),
    q.link('species', 'creature-species', 'a species', (e) => e.species),
    q.yesNo('is_default', (e) => e.is_default),
    ...speciesFilters(q, ' of its species'),
    q.links('evolution_trigger', 'evolution-trigger', 'a trigger of the evolution into its species (`trade`)', (e) =>
      distinct((e.evolution.from?.evolution_details ?? []).map((d) => d.trigger)),
    ),
  ],
  ranges: [
    ...statRanges(q),
    q.integer('base_stat_total', 'base stat total (the sum of its base stats)'),
    q.integer('base_experience', 'base experience (creatures without a figure match no range)'),
    q.integer('height', 'height in decimetres'),
    q.integer('weight', 'weight in hectograms'),
    ...speciesRanges(q, ' of its species'),
    q.range('order', 'sort order of its species (evolution families together)', (_, s) => speciesOf(s).order),
    q.range('stage', 'its species’ stage in its evolution chain, 1 for the first', (e) => e.evolution.stage),
  ],
  fields: [
    'id',
    'is_default',
    'creature',
    'species',
    'types',
    'abilities',
    'stats',
    'base_stat_total',
    'height',
    'weight',
    'base_experience',
    'generation',
    'color',
    'shape',
    'habitat',
    'egg_groups',
    'growth_rate',
    'capture_rate',
    'is_baby',
    'is_legendary',
    'is_mythical',
    'evolution.stage',
    'sprites.front_default',
    'sprites.other.official-artwork.front_default',
  ],
  links: { species: 'creature-species', creature: 'creature' },
  names: creatureNames,
});

export const entry = defineResource({
  kind: 'entry',
  schema: Entry,
  emit: (e, ctx) => {
    const c = ctx.get('creature', e.id);
    const speciesRecord = ctx.get('creature-species', c.species_id);
    const species = creatureSpecies.emit(speciesRecord, ctx);
    const stats = creatureStats(ctx, c);
    return {
      id: c.id,
      name: c.name,
      is_default: c.is_default,
      creature: ctx.ref('creature', c.id),
      species: ctx.ref('creature-species', c.species_id),
      types: creatureTypes(ctx, c),
      abilities: creatureAbilities(ctx, c),
      stats,
      base_stat_total: stats.reduce((sum, s) => sum + s.base_stat, 0),
      height: c.height,
      weight: c.weight,
      base_experience: c.base_experience,
      ...picked(species, SPECIES_FIELDS),
      forms: forms(ctx, c),
      evolution: evolutionPlace(ctx, speciesRecord),
      flavor_text_entries: species.flavor_text_entries,
      sprites: creatureSprites(c, ctx),
      cries: cries(ctx, c),
    };
  },
  query,
  // the species' dex texts, word for word: kept once, in the species' file
  borrows: { field: 'flavor_text_entries', from: 'species' },
});
