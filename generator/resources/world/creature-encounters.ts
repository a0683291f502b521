import { CreatureEncounters } from '../../../schemas/output/encounters.ts';
import type { SubresourceDef } from '../define.ts';
import { groupInOrder, sortedBy } from '../../lists.ts';
import { versionEncounterDetails } from './encounters.ts';

/**
 * `/creature/{id}/encounters`: the location areas where the creature is met. The upstream lists
 * areas by id, then versions by id, then a version's encounters by encounter slot id.
 */
export const creatureEncounters: SubresourceDef<'creature', typeof CreatureEncounters> = {
  schema: CreatureEncounters,
  emit: (creature, ctx) => {
    // owners (areas) come in id order, each area's encounters in table (id) order
    const found = ctx.childrenBy('location-area', 'encounters', 'creature_id').get(creature.id) ?? [];
    return groupInOrder(found, (f) => f.owner.id).map(([areaId, inArea]) => ({
      location_area: ctx.ref('location-area', areaId),
      version_details: versionEncounterDetails(
        ctx,
        sortedBy(
          inArea.map((f) => f.row),
          (e) => e.version_id,
          (e) => e.encounter_slot_id,
        ),
      ),
    }));
  },
};
