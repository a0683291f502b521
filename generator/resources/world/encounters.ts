/**
 * The details of encounters, written once for both places that list them: a location area's
 * `creature_encounters` and a creature's `/encounters`. An encounter's chance and method come
 * from its encounter slot; its conditions and extra creature details from its own child rows.
 */
import type { EncounterDetail, VersionEncounterDetail } from '../../../schemas/output/encounters.ts';
import type { BuildContext } from '../context.ts';
import { groupInOrder } from '../../lists.ts';
import type { RecordOf } from '../../model/kinds.ts';

export type Encounter = RecordOf<'location-area'>['encounters'][number];

function encounterSlot(ctx: BuildContext, slotId: number) {
  const found = ctx.childrenBy('encounter-method', 'slots', 'id').get(slotId)?.[0];
  if (!found) throw new Error(`no encounter slot with id ${slotId}`);
  return { method: found.owner, slot: found.row };
}

export function encounterDetail(ctx: BuildContext, encounter: Encounter): EncounterDetail {
  const { method, slot } = encounterSlot(ctx, encounter.encounter_slot_id);
  // The upstream shows the first details row of an encounter; the data has at most one.
  const details = encounter.creature_details[0];
  return {
    min_level: encounter.min_level,
    max_level: encounter.max_level,
    condition_values: encounter.condition_values.map((c) => ctx.ref('encounter-condition-value', c.encounter_condition_value_id)),
    chance: slot.rarity,
    method: ctx.ref('encounter-method', method.id),
    creature_details: details
      ? { min_perfect_ivs: details.min_perfect_ivs, always_shiny: details.always_shiny, never_shiny: details.never_shiny, is_alpha: details.is_alpha }
      : null,
  };
}

/**
 * One creature's encounters in one area, one entry per version in the order the versions first
 * appear in `encounters` (callers sort them as their upstream list does).
 */
export function versionEncounterDetails(ctx: BuildContext, encounters: readonly Encounter[]): VersionEncounterDetail[] {
  return groupInOrder(encounters, (e) => e.version_id).map(([versionId, inVersion]) => {
    const details = inVersion.map((e) => encounterDetail(ctx, e));
    return {
      version: ctx.ref('version', versionId),
      max_chance: details.reduce((sum, d) => sum + d.chance, 0),
      encounter_details: details,
    };
  });
}
