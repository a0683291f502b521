/**
 * A move's `past_values` come from its changelog table read by column name. The upstream's own
 * build reads that table two columns off (its priority column as the effect, its target column
 * as the effect chance), so its published past effects are wrong or missing; this project reads
 * the right columns on purpose (README, "Where this API differs from the upstream").
 *
 * Every value below is invented, and each column holds a value no other column does, so a
 * reading that is off by a column shows up as the wrong effect text or the wrong chance.
 */
import { describe, expect, it } from 'vitest';
import { createContext } from '../generator/resources/context.ts';
import { recordsFromTables } from '../generator/import/import.ts';
import { readTable, storeOf } from '../generator/import/tables.ts';
import { move } from '../generator/resources/moves/move.ts';
import type { TableKey } from '../schemas/tables.ts';

const tables: Partial<Record<TableKey, string>> = {
  languages: 'id,iso639,iso3166,identifier,official,order\n1,en,us,en,1,1\n',
  regions: 'id,identifier\n1,northland\n',
  generations: 'id,main_region_id,identifier\n1,1,generation-i\n',
  version_groups: 'id,identifier,generation_id,order\n1,alpha-beta,1,1\n2,gamma-delta,1,2\n',
  types: 'id,identifier,generation_id,damage_class_id\n1,spark,1,\n2,frost,1,\n',
  move_targets: 'id,identifier\n1,one-foe\n2,every-foe\n',
  move_damage_classes: 'id,identifier\n1,special\n',
  moves:
    'id,identifier,generation_id,type_id,power,pp,accuracy,priority,target_id,damage_class_id,effect_id,effect_chance,contest_type_id,contest_effect_id,super_contest_effect_id\n' +
    '1,zap-beam,1,2,90,15,95,0,1,1,7,30,,,\n',
  // changed in version group 2: before it the move was a spark move of power 70, whose effect
  // 5 fired 10% of the time; priority 3 and target 2 are in the row too, and are not shown
  move_changelog: 'move_id,changed_in_version_group_id,type_id,power,pp,accuracy,priority,target_id,effect_id,effect_chance\n' + '1,2,1,70,,,3,2,5,10\n',
  move_effect_prose:
    'move_effect_id,local_language_id,short_effect,effect\n' +
    '3,1,Wrong: the priority column read as the effect.,Wrong: the priority column read as the effect.\n' +
    '5,1,May chill the target.,Has a $effect_chance% chance to chill the target.\n' +
    '7,1,May freeze the target.,Has a $effect_chance% chance to freeze the target.\n',
};

function buildMove() {
  const problems: Parameters<typeof readTable>[2] = [];
  const store = new Map<TableKey, Array<Record<string, unknown>>>();
  for (const [table, text] of Object.entries(tables) as Array<[TableKey, string]>) store.set(table, readTable(table, text, problems));
  expect(problems).toEqual([]);
  const records = recordsFromTables(storeOf(store));
  const ctx = createContext('http://api.test/v2', records, { sprites: new Set(), cries: new Set() });
  return move.emit(ctx.get('move', 1), ctx);
}

describe('move past_values', () => {
  it('takes the effect and its chance from their own columns, not the priority and target columns', () => {
    const [past, ...more] = buildMove().past_values;
    expect(more).toEqual([]);
    expect(past).toEqual({
      accuracy: null,
      power: 70,
      pp: null,
      effect_chance: 10,
      effect_entries: [
        {
          effect: 'Has a $effect_chance% chance to chill the target.',
          short_effect: 'May chill the target.',
          language: { name: 'en', url: 'http://api.test/v2/language/1/' },
        },
      ],
      type: { name: 'spark', url: 'http://api.test/v2/type/1/' },
      version_group: { name: 'gamma-delta', url: 'http://api.test/v2/version-group/2/' },
    });
  });

  it('leaves the current values as the moves table has them', () => {
    const now = buildMove();
    expect(now.effect_chance).toBe(30);
    expect(now.priority).toBe(0);
    expect(now.effect_entries.map((e) => e.short_effect)).toEqual(['May freeze the target.']);
  });
});
