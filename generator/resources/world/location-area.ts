import { LocationArea } from '../../../schemas/output/world.ts';
import { names } from '../shapes.ts';
import { defineResource } from '../define.ts';
import { groupInOrder, sortedBy } from '../../lists.ts';
import { versionEncounterDetails } from './encounters.ts';

export const locationArea = defineResource({
  kind: 'location-area',
  schema: LocationArea,
  emit: (area, ctx) => ({
    id: area.id,
    name: area.name,
    game_index: area.game_index,
    // The upstream orders rates by method only; a method's versions keep the table's order.
    encounter_method_rates: groupInOrder(
      sortedBy(area.encounter_rates, (r) => r.encounter_method_id),
      (r) => r.encounter_method_id,
    ).map(([methodId, rates]) => ({
      encounter_method: ctx.ref('encounter-method', methodId),
      version_details: rates.map((r) => ({ rate: r.rate, version: ctx.ref('version', r.version_id) })),
    })),
    location: ctx.ref('location', area.location_id),
    names: names(ctx, area.names),
    // The upstream orders by creature, then version, then (as its responses show) encounter slot;
    // encounters equal on all three keep the table's (id) order.
    creature_encounters: groupInOrder(
      sortedBy(
        area.encounters,
        (e) => e.creature_id,
        (e) => e.version_id,
        (e) => e.encounter_slot_id,
      ),
      (e) => e.creature_id,
    ).map(([creatureId, encounters]) => ({
      creature: ctx.ref('creature', creatureId),
      version_details: versionEncounterDetails(ctx, encounters),
    })),
  }),
  query: () => ({ filters: [], fields: ['id', 'game_index', 'location'] }),
});
