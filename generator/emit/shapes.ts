/**
 * Builders for the shapes that many resources share (schemas/output/common.ts). The upstream
 * tables name the language column `local_language_id` in most tables and `language_id` in a
 * few; both are accepted.
 */
import type {
  Description, Effect, FlavorTextByVersion, FlavorTextByVersionGroup, Name, NamedResource, VerboseEffect,
} from '../../schemas/output/common.ts';
import type { BuildContext } from './context.ts';

type Localized = { local_language_id: number } | { language_id: number };

export const languageId = (row: Localized): number => ('local_language_id' in row ? row.local_language_id : row.language_id);
const language = (ctx: BuildContext, row: Localized): NamedResource => ctx.ref('language', languageId(row));

/** `names`: every row with a name, in table order. */
export function names(ctx: BuildContext, rows: ReadonlyArray<Localized & { name: string | null }>): Name[] {
  return rows.flatMap((r) => (r.name === null ? [] : [{ name: r.name, language: language(ctx, r) }]));
}

/** `effect_entries` with a short effect. */
export function verboseEffects(
  ctx: BuildContext,
  rows: ReadonlyArray<Localized & { effect: string | null; short_effect: string | null }>,
): VerboseEffect[] {
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

export function flavorTextsByVersion(
  ctx: BuildContext,
  rows: ReadonlyArray<Localized & { flavor_text: string; version_id: number }>,
): FlavorTextByVersion[] {
  return rows.map((r) => ({ flavor_text: r.flavor_text, language: language(ctx, r), version: ctx.ref('version', r.version_id) }));
}
