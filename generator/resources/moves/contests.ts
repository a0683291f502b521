/** Contest types and the effects moves have in contests and super contests. */
import { ContestEffect, ContestType, SuperContestEffect } from '../../../schemas/output/contests.ts';
import type { BuildContext } from '../context.ts';
import { effects, languageId } from '../shapes.ts';
import { defineResource } from '../define.ts';

const flavorTexts = (ctx: BuildContext, rows: ReadonlyArray<{ flavor_text: string; local_language_id: number }>) =>
  rows.map((r) => ({ flavor_text: r.flavor_text, language: ctx.ref('language', languageId(r)) }));

export const contestType = defineResource({
  kind: 'contest-type',
  schema: ContestType,
  emit: (type, ctx) => ({
    id: type.id,
    name: type.name,
    // Each contest type has the berry flavor of the same id (the upstream builds flavors from contest types).
    berry_flavor: ctx.ref('berry-flavor', type.id),
    // Japanese rows have no color; the upstream answers an empty string for them, not null.
    names: type.names.map((n) => ({ name: n.name, color: n.color ?? '', language: ctx.ref('language', n.local_language_id) })),
  }),
  query: (q) => ({
    filters: [q.link('berry_flavor', 'berry-flavor', 'a berry flavor', (t) => t.berry_flavor)],
    fields: ['id', 'berry_flavor'],
  }),
});

export const contestEffect = defineResource({
  kind: 'contest-effect',
  schema: ContestEffect,
  emit: (effect, ctx) => ({
    id: effect.id,
    appeal: effect.appeal,
    jam: effect.jam,
    effect_entries: effects(ctx, effect.prose),
    flavor_text_entries: flavorTexts(ctx, effect.prose),
  }),
  query: () => ({ filters: [], fields: ['id', 'appeal', 'jam'] }),
});

export const superContestEffect = defineResource({
  kind: 'super-contest-effect',
  schema: SuperContestEffect,
  emit: (effect, ctx) => ({
    id: effect.id,
    appeal: effect.appeal,
    flavor_text_entries: flavorTexts(ctx, effect.prose),
    moves: ctx.refsWhere('move', 'super_contest_effect_id', effect.id),
  }),
  query: () => ({ filters: [], fields: ['id', 'appeal'] }),
});
