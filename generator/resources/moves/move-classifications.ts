/** The resources that classify moves: ailment, battle style, category, damage class, learn method, target. */
import type { NamedResource } from '../../../schemas/output/common.ts';
import { MoveAilment, MoveBattleStyle, MoveCategory, MoveDamageClass, MoveLearnMethod, MoveTarget } from '../../../schemas/output/moves.ts';
import type { BuildContext } from '../context.ts';
import { descriptions, names } from '../shapes.ts';
import { defineResource } from '../define.ts';

const moveRefs = (ctx: BuildContext, moves: ReadonlyArray<{ id: number }> | undefined): NamedResource[] => (moves ?? []).map((m) => ctx.ref('move', m.id));

/** Moves whose battle data (move_meta) names this ailment or category, in move order. */
const movesByMeta = (ctx: BuildContext, field: 'meta_ailment_id' | 'meta_category_id', id: number) =>
  moveRefs(
    ctx,
    ctx
      .childrenBy('move', 'meta', field)
      .get(id)
      ?.map(({ owner }) => owner),
  );

export const moveAilment = defineResource({
  kind: 'move-ailment',
  schema: MoveAilment,
  emit: (ailment, ctx) => ({
    id: ailment.id,
    name: ailment.name,
    moves: movesByMeta(ctx, 'meta_ailment_id', ailment.id),
    names: names(ctx, ailment.names),
  }),
});

export const moveBattleStyle = defineResource({
  kind: 'move-battle-style',
  schema: MoveBattleStyle,
  emit: (style, ctx) => ({ id: style.id, name: style.name, names: names(ctx, style.prose) }),
});

export const moveCategory = defineResource({
  kind: 'move-category',
  schema: MoveCategory,
  emit: (category, ctx) => ({
    id: category.id,
    name: category.name,
    descriptions: descriptions(ctx, category.prose),
    moves: movesByMeta(ctx, 'meta_category_id', category.id),
  }),
});

export const moveDamageClass = defineResource({
  kind: 'move-damage-class',
  schema: MoveDamageClass,
  emit: (damageClass, ctx) => ({
    id: damageClass.id,
    name: damageClass.name,
    descriptions: descriptions(ctx, damageClass.prose),
    moves: ctx.refsWhere('move', 'damage_class_id', damageClass.id),
    names: names(ctx, damageClass.prose),
  }),
});

export const moveLearnMethod = defineResource({
  kind: 'move-learn-method',
  schema: MoveLearnMethod,
  emit: (method, ctx) => ({
    id: method.id,
    name: method.name,
    descriptions: descriptions(ctx, method.prose),
    names: names(ctx, method.prose),
    version_groups: method.version_groups.map((v) => ctx.ref('version-group', v.version_group_id)),
  }),
  query: (q) => ({
    filters: [q.links('version_group', 'version-group', 'a version group', (m) => m.version_groups)],
    fields: ['id'],
  }),
});

export const moveTarget = defineResource({
  kind: 'move-target',
  schema: MoveTarget,
  emit: (target, ctx) => ({
    id: target.id,
    name: target.name,
    descriptions: descriptions(ctx, target.prose),
    moves: ctx.refsWhere('move', 'target_id', target.id),
    names: names(ctx, target.prose),
  }),
});
