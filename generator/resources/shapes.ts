/**
 * Builders for the shapes that many resources share (schemas/output/common.ts). The upstream
 * tables name the language column `local_language_id` in most tables and `language_id` in a
 * few; both are accepted.
 */
import type {
  Description,
  Effect,
  EffectChange,
  FlavorTextByVersion,
  FlavorTextByVersionGroup,
  GenerationGameIndex,
  HeldItemVersionDetail,
  MachineVersionDetail,
  Name,
  NamedResource,
  VerboseEffect,
  VersionGameIndex,
} from '../../schemas/output/common.ts';
import type { BuildContext } from './context.ts';
import { sortedBy } from '../lists.ts';

type Localized = { local_language_id: number } | { language_id: number };

export const languageId = (row: Localized): number => ('local_language_id' in row ? row.local_language_id : row.language_id);
const language = (ctx: BuildContext, row: Localized): NamedResource => ctx.ref('language', languageId(row));

/** `names`: every row with a name, in table order. */
export function names(ctx: BuildContext, rows: ReadonlyArray<Localized & { name: string | null }>): Name[] {
  return rows.flatMap((r) => (r.name === null ? [] : [{ name: r.name, language: language(ctx, r) }]));
}

/** `effect_entries` with a short effect. */
export function verboseEffects(ctx: BuildContext, rows: ReadonlyArray<Localized & { effect: string | null; short_effect: string | null }>): VerboseEffect[] {
  return rows.flatMap((r) =>
    r.effect === null && r.short_effect === null ? [] : [{ effect: r.effect ?? '', short_effect: r.short_effect ?? '', language: language(ctx, r) }],
  );
}

/** `effect_entries` without a short effect. */
export function effects(ctx: BuildContext, rows: ReadonlyArray<Localized & { effect: string | null }>): Effect[] {
  return rows.flatMap((r) => (r.effect === null ? [] : [{ effect: r.effect, language: language(ctx, r) }]));
}

export function descriptions(ctx: BuildContext, rows: ReadonlyArray<Localized & { description: string | null }>): Description[] {
  return rows.flatMap((r) => (r.description === null ? [] : [{ description: r.description, language: language(ctx, r) }]));
}

export function flavorTextsByVersionGroup(
  ctx: BuildContext,
  rows: ReadonlyArray<Localized & { flavor_text: string; version_group_id: number }>,
): FlavorTextByVersionGroup[] {
  return rows.map((r) => ({ flavor_text: r.flavor_text, language: language(ctx, r), version_group: ctx.ref('version-group', r.version_group_id) }));
}

export function flavorTextsByVersion(ctx: BuildContext, rows: ReadonlyArray<Localized & { flavor_text: string; version_id: number }>): FlavorTextByVersion[] {
  return rows.map((r) => ({ flavor_text: r.flavor_text, language: language(ctx, r), version: ctx.ref('version', r.version_id) }));
}

/** `effect_changes`: each changelog row with its effect texts (abilities and moves). */
export function effectChanges(
  ctx: BuildContext,
  rows: ReadonlyArray<{ changed_in_version_group_id: number; prose: ReadonlyArray<Localized & { effect: string | null }> }>,
): EffectChange[] {
  return rows.map((row) => ({ effect_entries: effects(ctx, row.prose), version_group: ctx.ref('version-group', row.changed_in_version_group_id) }));
}

/** `machines`: the machines that teach a move, each with its version group (moves and items). */
export function machineVersionDetails(ctx: BuildContext, machines: ReadonlyArray<{ id: number; version_group_id: number }>): MachineVersionDetail[] {
  return machines.map((m) => ({ machine: ctx.resource('machine', m.id), version_group: ctx.ref('version-group', m.version_group_id) }));
}

export function generationGameIndices(ctx: BuildContext, rows: ReadonlyArray<{ game_index: number; generation_id: number }>): GenerationGameIndex[] {
  return rows.map((r) => ({ game_index: r.game_index, generation: ctx.ref('generation', r.generation_id) }));
}

export function versionGameIndices(ctx: BuildContext, rows: ReadonlyArray<{ game_index: number; version_id: number }>): VersionGameIndex[] {
  return rows.map((r) => ({ game_index: r.game_index, version: ctx.ref('version', r.version_id) }));
}

/**
 * `version_details` of a held item, by version id; rows of one version keep table order. The
 * upstream sorts here, and its table has rows appended out of place (creature 82's `xd` row sits
 * near the end of the file, its place is between `white` and `black-2`).
 */
export function heldItemVersionDetails(ctx: BuildContext, rows: ReadonlyArray<{ rarity: number; version_id: number }>): HeldItemVersionDetail[] {
  return sortedBy(rows, (r) => r.version_id).map((r) => ({ rarity: r.rarity, version: ctx.ref('version', r.version_id) }));
}
