import { Creature } from '../../../schemas/output/creatures.ts';
import type { BuildContext } from '../context.ts';
import { heldItemVersionDetails, names, versionGameIndices } from '../shapes.ts';
import type { Static } from '@sinclair/typebox';
import type { KindName, RecordOf } from '../../model/kinds.ts';
import { defineResource } from '../define.ts';
import { creatureEncounters } from '../world/creature-encounters.ts';
import { groupInOrder, runsOf, sortedBy } from '../../lists.ts';
import { creatureSprites } from './sprites.ts';
import { formFullNames } from './creature-form.ts';
import { speciesLinks } from '../species/creature-species.ts';
import { asTranslated, type FactSource, type QueryDecl, type QueryShapes, type TranslatedName } from '../query.ts';

type CreatureRecord = RecordOf<'creature'>;

/** A `types` entry; forms without types of their own show their creature's. */
export const typeSlot = (ctx: BuildContext, row: { slot: number; type_id: number }) => ({ slot: row.slot, type: ctx.ref('type', row.type_id) });
const statValue = (ctx: BuildContext, row: { base_stat: number; effort: number; stat_id: number }) => ({
  base_stat: row.base_stat,
  effort: row.effort,
  stat: ctx.ref('stat', row.stat_id),
});

/** A creature's move rows, a group per move by move id, each in table order (version group, then method): its `moves`, and its as-of document's (indexes/as-of.ts). */
export const movesByMove = (creature: CreatureRecord) =>
  sortedBy(
    groupInOrder(creature.moves, (m) => m.move_id),
    ([moveId]) => moveId,
  );

/** One entry per move, by move id; its details in table order (version group, then method). */
function moves(ctx: BuildContext, creature: CreatureRecord) {
  return movesByMove(creature).map(([moveId, rows]) => ({
    move: ctx.ref('move', moveId),
    version_group_details: rows.map((r) => ({
      level_learned_at: r.level,
      move_learn_method: ctx.ref('move-learn-method', r.creature_move_method_id),
      order: r.order,
      version_group: ctx.ref('version-group', r.version_group_id),
    })),
  }));
}

/** One entry per item, by item id; its versions by version id. */
function heldItems(ctx: BuildContext, creature: CreatureRecord) {
  return sortedBy(
    groupInOrder(creature.held_items, (h) => h.item_id),
    ([itemId]) => itemId,
  ).map(([itemId, rows]) => ({
    item: ctx.ref('item', itemId),
    version_details: heldItemVersionDetails(ctx, rows),
  }));
}

/** The abilities it may have now, by slot. */
export const creatureAbilities = (ctx: BuildContext, c: CreatureRecord) =>
  c.abilities.map((a) => ({ ability: ctx.ref('ability', a.ability_id), is_hidden: a.is_hidden, slot: a.slot }));
export const creatureStats = (ctx: BuildContext, c: CreatureRecord) => c.stats.map((s) => statValue(ctx, s));
export const creatureTypes = (ctx: BuildContext, c: CreatureRecord) => c.types.map((t) => typeSlot(ctx, t));

/** What changed over the generations: each run of rows of one generation, the values up to and including it. */
const pastAbilities = (ctx: BuildContext, c: CreatureRecord) =>
  runsOf(c.past_abilities, (a) => a.generation_id).map(([generationId, rows]) => ({
    abilities: rows.map((a) => ({ ability: ctx.refOrNull('ability', a.ability_id), is_hidden: a.is_hidden, slot: a.slot })),
    generation: ctx.ref('generation', generationId),
  }));
const pastStats = (ctx: BuildContext, c: CreatureRecord) =>
  runsOf(c.past_stats, (s) => s.generation_id).map(([generationId, rows]) => ({
    generation: ctx.ref('generation', generationId),
    stats: rows.map((s) => statValue(ctx, s)),
  }));
const pastTypes = (ctx: BuildContext, c: CreatureRecord) =>
  runsOf(c.past_types, (t) => t.generation_id).map(([generationId, rows]) => ({
    generation: ctx.ref('generation', generationId),
    types: rows.map((t) => typeSlot(ctx, t)),
  }));
/** The creature's `past_*` values as its item has them: what its entry as of a game reads (indexes/as-of.ts). */
export const creaturePast = (ctx: BuildContext, c: CreatureRecord) => ({
  types: pastTypes(ctx, c),
  abilities: pastAbilities(ctx, c),
  stats: pastStats(ctx, c),
});

/** The upstream's cries are named by creature id; a missing file is null. */
export const cries = (ctx: BuildContext, creature: CreatureRecord) => ({
  latest: ctx.cry(`cries/pokemon/latest/${creature.id}.ogg`),
  legacy: ctx.cry(`cries/pokemon/legacy/${creature.id}.ogg`),
});

type CreatureItem = Static<typeof Creature>;
/** What the facts code of a creature's documents (its item, its entry) reads beside the item: the creature's row and the context. */
type OfCreature = Pick<FactSource<'creature' | 'entry', unknown>, 'ctx'> & { record: { id: number; species_id: number } };

/** The creature's species, read with the item's context: an edit of the species makes the creature's item and facts again. */
export const speciesOf = ({ record, ctx }: OfCreature) => ctx.get('creature-species', record.species_id);

/** The base stats, each a range by the stat's name. */
const BASE_STATS = ['hp', 'attack', 'defense', 'special-attack', 'special-defense', 'speed'];
/** A range per base stat, of an item that has the creature's `stats` (the creature's, its entry's). */
export const statRanges = <K extends KindName, I extends Pick<CreatureItem, 'stats'>>(q: QueryShapes<K, I>) =>
  BASE_STATS.map((stat) => q.range(stat, `base ${stat}`, (c) => c.stats.find((s) => s.stat.name === stat)?.base_stat ?? null));

/**
 * Besides its own name, a creature is found by its species' translated names and its forms'
 * (`Mega Charizard X`). A form's own API name is left out: it has no language, and it folds like
 * its English name (`unown-b`, `Unown B`). So are a form's `form_names` (`Sun Pattern`, `B`),
 * which name the variant rather than the creature.
 */
export function creatureNames(source: OfCreature): TranslatedName[] {
  const { record, ctx } = source;
  const forms = ctx.groupBy('creature-form', 'creature_id').get(record.id) ?? [];
  return [...asTranslated(names(ctx, speciesOf(source).names)), ...forms.flatMap((form) => asTranslated(formFullNames(ctx, form)))];
}

const query = (q: QueryShapes<'creature', CreatureItem>): QueryDecl<'creature', CreatureItem> => ({
  filters: [
    q.links('type', 'type', 'a type', (c) => c.types.map((t) => t.type)),
    q.links('ability', 'ability', 'an ability (hidden ones too)', (c) => c.abilities.map((a) => a.ability)),
    q.links('move', 'move', 'a move it can learn', (c) => c.moves.map((m) => m.move)),
    q.link('species', 'creature-species', 'a species', (c) => c.species),
    q.yesNo('is_default', (c) => c.is_default),
    q.link('generation', 'generation', 'the generation of its species', (_, s) => speciesLinks.generation(s.ctx, speciesOf(s))),
    q.link('color', 'creature-color', 'the color of its species', (_, s) => speciesLinks.color(s.ctx, speciesOf(s))),
    q.link('shape', 'creature-shape', 'the shape of its species', (_, s) => speciesLinks.shape(s.ctx, speciesOf(s))),
    q.link('habitat', 'creature-habitat', 'the habitat of its species', (_, s) => speciesLinks.habitat(s.ctx, speciesOf(s))),
    q.links('egg_group', 'egg-group', 'an egg group of its species', (_, s) => speciesLinks.egg_groups(s.ctx, speciesOf(s))),
    q.yesNo('is_legendary', (_, s) => speciesOf(s).is_legendary),
    q.yesNo('is_mythical', (_, s) => speciesOf(s).is_mythical),
    q.yesNo('is_baby', (_, s) => speciesOf(s).is_baby),
  ],
  ranges: [
    ...statRanges(q),
    // derived, as the upstream's examples rank creatures by it; none for a creature without stats
    q.range('base_stat_total', 'base stat total (the sum of its base stats)', (c) =>
      c.stats.length === 0 ? null : c.stats.reduce((sum, s) => sum + s.base_stat, 0),
    ),
    q.integer('base_experience', 'base experience (creatures without a figure match no range)'),
    q.integer('height', 'height in decimetres'),
    q.integer('weight', 'weight in hectograms'),
  ],
  fields: [
    'id',
    'base_experience',
    'height',
    'weight',
    'is_default',
    'abilities',
    'species',
    'sprites.front_default',
    'sprites.other.official-artwork.front_default',
    'stats',
    'types',
  ],
  // one step to the species: `species.names`, `species.generation`, `species.is_legendary`, …
  links: { species: 'creature-species' },
  names: creatureNames,
});

export const creature = defineResource({
  kind: 'creature',
  schema: Creature,
  emit: (c, ctx) => ({
    id: c.id,
    name: c.name,
    base_experience: c.base_experience,
    height: c.height,
    weight: c.weight,
    is_default: c.is_default,
    // the upstream stores a missing order as -1
    order: c.order ?? -1,
    abilities: creatureAbilities(ctx, c),
    past_abilities: pastAbilities(ctx, c),
    forms: ctx.refsWhere('creature-form', 'creature_id', c.id),
    game_indices: versionGameIndices(ctx, c.game_indices),
    held_items: heldItems(ctx, c),
    location_area_encounters: `${ctx.baseUrl}/creature/${c.id}/encounters`,
    moves: moves(ctx, c),
    species: ctx.ref('creature-species', c.species_id),
    sprites: creatureSprites(c, ctx),
    cries: cries(ctx, c),
    stats: creatureStats(ctx, c),
    past_stats: pastStats(ctx, c),
    types: creatureTypes(ctx, c),
    past_types: pastTypes(ctx, c),
  }),
  subresources: { encounters: creatureEncounters },
  query,
});
