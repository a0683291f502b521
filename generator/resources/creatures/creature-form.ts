import { CreatureForm, type CreatureFormTriggerCondition } from '../../../schemas/output/creatures.ts';
import type { NamedResource } from '../../../schemas/output/common.ts';
import type { BuildContext } from '../context.ts';
import { productWordReplaced } from '../../model/define.ts';
import type { RecordOf } from '../../model/kinds.ts';
import { names } from '../shapes.ts';
import { defineResource } from '../define.ts';
import { typeSlot } from './creature.ts';
import { formSprites } from './sprites.ts';

type FormRecord = RecordOf<'creature-form'>;
type Condition = FormRecord['conditions'][number];

/** A form's own types; a form without any shows its creature's (the upstream falls back the same way). */
function formTypes(ctx: BuildContext, form: FormRecord) {
  const own = form.types.length ? form.types : ctx.get('creature', form.creature_id).types;
  return own.map((t) => typeSlot(ctx, t));
}

/** The item, ability or move a trigger needs; a trigger such as `gigantamax-factor` needs none. */
function triggerTarget(ctx: BuildContext, c: Condition): NamedResource | null {
  if (c.trigger_item_id !== null) return ctx.ref('item', c.trigger_item_id);
  if (c.trigger_ability_id !== null) return ctx.ref('ability', c.trigger_ability_id);
  if (c.trigger_move_id !== null) return ctx.ref('move', c.trigger_move_id);
  return null;
}

/**
 * A condition carries only the keys that apply (the upstream omits the others rather than
 * writing null): the trigger, the item, ability or move it needs, and the form it starts from.
 */
function triggerConditions(ctx: BuildContext, form: FormRecord): CreatureFormTriggerCondition[] {
  return form.conditions.map((c) => {
    const target = triggerTarget(ctx, c);
    const trigger = c.trigger[0];
    if (!trigger) throw new Error(`form condition of creature-form ${form.id} has no trigger ${c.form_trigger_id}`);
    return {
      ...(c.base_form_id !== null ? { base_form: ctx.ref('creature-form', c.base_form_id) } : {}),
      ...(target ? { name: target.name } : {}),
      trigger: productWordReplaced(trigger.identifier),
      ...(target ? { url: target.url } : {}),
    };
  });
}

/** The full name of the creature in this form, per language (`Mega Charizard X`): the form's `names`, and what its creature is searched by. */
export const formFullNames = (ctx: BuildContext, form: FormRecord) =>
  names(
    ctx,
    form.names.map((n) => ({ local_language_id: n.local_language_id, name: n.creature_name })),
  );

/** The form's own part of its name (`b` of `unown-b`); empty when it has none. */
export const formName = (form: FormRecord) => productWordReplaced(form.form_identifier ?? '');

export const creatureForm = defineResource({
  kind: 'creature-form',
  schema: CreatureForm,
  emit: (form, ctx) => ({
    id: form.id,
    name: form.name,
    order: form.order,
    form_order: form.form_order,
    is_default: form.is_default,
    is_battle_only: form.is_battle_only,
    is_mega: form.is_mega,
    form_name: formName(form),
    creature: ctx.ref('creature', form.creature_id),
    sprites: formSprites(form, ctx),
    version_group: ctx.ref('version-group', form.introduced_in_version_group_id),
    // one names table holds both: the form's own name, and the full name of the creature in it
    form_names: names(
      ctx,
      form.names.map((n) => ({ local_language_id: n.local_language_id, name: n.form_name })),
    ),
    names: formFullNames(ctx, form),
    types: formTypes(ctx, form),
    trigger_conditions: triggerConditions(ctx, form),
  }),
  query: (q) => ({
    filters: [
      q.links('type', 'type', 'a type', (f) => f.types.map((t) => t.type)),
      q.yesNo('is_default', (f) => f.is_default),
      q.yesNo('is_battle_only', (f) => f.is_battle_only),
      q.yesNo('is_mega', (f) => f.is_mega),
      q.link('version_group', 'version-group', 'a version group', (f) => f.version_group),
    ],
    ranges: [q.integer('order', 'sort order over all forms'), q.integer('form_order', 'order among its species’ forms')],
    fields: [
      'id',
      'order',
      'form_order',
      'is_default',
      'is_battle_only',
      'is_mega',
      'form_name',
      'creature',
      'sprites.front_default',
      'version_group',
      'types',
    ],
  }),
});
