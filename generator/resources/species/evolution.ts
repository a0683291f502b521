/** The evolution resources: chains (a tree of the species that evolve into one another) and triggers. */
import { EvolutionChain, EvolutionTrigger, type ChainLink, type EvolutionDetail } from '../../../schemas/output/evolution.ts';
import type { BuildContext } from '../context.ts';
import { names } from '../shapes.ts';
import { idsInOrder, sortedBy } from '../../lists.ts';
import type { RecordOf } from '../../model/kinds.ts';
import { defineResource } from '../define.ts';

type Species = RecordOf<'creature-species'>;
type EvolutionRow = Species['evolutions'][number];

function evolutionDetail(ctx: BuildContext, row: EvolutionRow): EvolutionDetail {
  return {
    version_group: ctx.ref('version-group', row.version_group_id),
    is_default: row.is_default,
    item: ctx.refOrNull('item', row.trigger_item_id),
    trigger: ctx.ref('evolution-trigger', row.evolution_trigger_id),
    gender: row.gender_id,
    held_item: ctx.refOrNull('item', row.held_item_id),
    known_move: ctx.refOrNull('move', row.known_move_id),
    known_move_type: ctx.refOrNull('type', row.known_move_type_id),
    location: ctx.refOrNull('location', row.location_id),
    min_level: row.minimum_level,
    min_happiness: row.minimum_happiness,
    min_beauty: row.minimum_beauty,
    min_affection: row.minimum_affection,
    near_special_rock: row.near_special_rock,
    needs_multiplayer: row.needs_multiplayer,
    needs_overworld_rain: row.needs_overworld_rain,
    party_species: ctx.refOrNull('creature-species', row.party_species_id),
    party_type: ctx.refOrNull('type', row.party_type_id),
    relative_physical_stats: row.relative_physical_stats,
    time_of_day: row.time_of_day ?? '',
    trade_species: ctx.refOrNull('creature-species', row.trade_species_id),
    turn_upside_down: row.turn_upside_down,
    region: ctx.refOrNull('region', row.region_id),
    base_form: ctx.refOrNull('creature', row.base_form_id),
    evolved_form: ctx.refOrNull('creature', row.evolved_form_id),
    used_move: ctx.refOrNull('move', row.used_move_id),
    min_move_count: row.minimum_move_count,
    min_steps: row.minimum_steps,
    min_damage_taken: row.minimum_damage_taken,
  };
}

interface Stage {
  species: Species;
  next: Stage[];
}

/**
 * The chain's species as a tree, the way the upstream builds it: species in `order`, the first
 * is the root, each later one hangs under the species it evolves from if that one is already
 * placed, else under the root. So siblings run in `order` too.
 */
function stageTree(members: readonly Species[]): Stage {
  const [first, ...rest] = sortedBy(members, (s) => s.order);
  if (!first) throw new Error('an evolution chain without species');
  const root: Stage = { species: first, next: [] };
  const placed = new Map<number, Stage>([[first.id, root]]);
  for (const species of rest) {
    const stage: Stage = { species, next: [] };
    const parent = species.evolves_from_species_id === null ? undefined : placed.get(species.evolves_from_species_id);
    (parent ?? root).next.push(stage);
    placed.set(species.id, stage);
  }
  return root;
}

// a species that evolves from nothing has no conditions, whatever rows point at it
const stageDetails = (ctx: BuildContext, { species }: Stage) =>
  species.evolves_from_species_id === null ? [] : species.evolutions.map((row) => evolutionDetail(ctx, row));

function chainLink(ctx: BuildContext, stage: Stage): ChainLink {
  const { species } = stage;
  return {
    is_baby: species.is_baby,
    species: ctx.ref('creature-species', species.id),
    evolution_details: stageDetails(ctx, stage),
    evolves_to: stage.next.map((s) => chainLink(ctx, s)),
  };
}

/** The stages from the root down to the species' own, or none when the tree does not hold it. */
function pathTo(stage: Stage, speciesId: number): Stage[] {
  if (stage.species.id === speciesId) return [stage];
  for (const next of stage.next) {
    const below = pathTo(next, speciesId);
    if (below.length) return [stage, ...below];
  }
  return [];
}

/** The stages of a species' chain from its first down to the species' own. */
const chainPath = (ctx: BuildContext, species: Species): Stage[] =>
  pathTo(stageTree(ctx.groupBy('creature-species', 'evolution_chain_id').get(species.evolution_chain_id) ?? []), species.id);

/** The species above this one in its chain, the chain's first species first. */
export const speciesAbove = (ctx: BuildContext, species: Species): Species[] =>
  chainPath(ctx, species)
    .slice(0, -1)
    .map((stage) => stage.species);

/**
 * A species' place in its chain, as its chain document has it: its depth (1 for the root), the
 * stage above it with its own details, and the stages below it with theirs.
 */
export function evolutionPlace(ctx: BuildContext, species: Species) {
  const path = chainPath(ctx, species);
  const own = path.at(-1);
  if (!own) throw new Error(`creature-species ${species.id} is not in its evolution chain ${species.evolution_chain_id}`);
  const above = path.at(-2);
  const step = (stage: Stage, details: EvolutionDetail[]) => ({ species: ctx.ref('creature-species', stage.species.id), evolution_details: details });
  return {
    chain: ctx.resource('evolution-chain', species.evolution_chain_id),
    stage: path.length,
    from: above ? step(above, stageDetails(ctx, own)) : null,
    to: own.next.map((next) => step(next, stageDetails(ctx, next))),
  };
}

export const evolutionChain = defineResource({
  kind: 'evolution-chain',
  schema: EvolutionChain,
  emit: (chain, ctx) => ({
    id: chain.id,
    baby_trigger_item: ctx.refOrNull('item', chain.baby_trigger_item_id),
    chain: chainLink(ctx, stageTree(ctx.groupBy('creature-species', 'evolution_chain_id').get(chain.id) ?? [])),
  }),
  query: () => ({ filters: [], fields: ['id', 'baby_trigger_item'] }),
});

/** Every evolution row with a given value in `field`, in the upstream's row (id) order, with the species it leads to. */
export function evolutionsBy(ctx: BuildContext, field: 'evolution_trigger_id' | 'gender_id', value: number) {
  return sortedBy(ctx.childrenBy('creature-species', 'evolutions', field).get(value) ?? [], ({ row }) => row.id);
}

export const evolutionTrigger = defineResource({
  kind: 'evolution-trigger',
  schema: EvolutionTrigger,
  emit: (trigger, ctx) => ({
    id: trigger.id,
    name: trigger.name,
    names: names(ctx, trigger.prose),
    // each species once, by id (the upstream's order since its commit 42d9fe1b; where its first evolution row stood before)
    creature_species: idsInOrder(evolutionsBy(ctx, 'evolution_trigger_id', trigger.id).map(({ owner }) => owner.id)).map((id) =>
      ctx.ref('creature-species', id),
    ),
  }),
});
