/**
 * Rules the upstream follows that the examples show for a few items, checked here for every
 * item of the built API against the tables themselves: which keys a form's trigger condition
 * carries, and the order of held-item versions.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { parseCsv } from '../generator/import/csv.ts';
import { itemFile } from '../edge/layout.ts';
import { testConfig } from './support/config.ts';

const distDir = inject('distDir');
const csvDir = join(testConfig().dataDir, 'csv');

function table(name: string): Array<Record<string, string>> {
  const { header, rows } = parseCsv(readFileSync(join(csvDir, `${name}.csv`), 'utf8'));
  return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r.cells[i] ?? ''])));
}
const item = <T>(kind: string, id: string | number): T => JSON.parse(readFileSync(join(distDir, itemFile(kind, String(id))), 'utf8')) as T;

interface Version {
  version: { url: string };
}
const versionIds = (details: Version[]) => details.map((d) => Number(/\/version\/(\d+)\/$/.exec(d.version.url)?.[1]));
const ascending = (ids: number[]) => ids.every((id, i) => i === 0 || ids[i - 1]! <= id);

describe('creature-form trigger_conditions', () => {
  const conditions = table('pokemon_form_conditions');

  it('carry only the keys that apply: base_form when there is one, name and url when the trigger needs an item, ability or move', () => {
    const byForm = new Map<string, Array<Record<string, string>>>();
    for (const row of conditions) byForm.set(row.pokemon_form_id!, [...(byForm.get(row.pokemon_form_id!) ?? []), row]);
    expect(byForm.size).toBeGreaterThan(150);
    for (const [formId, rows] of byForm) {
      const got = item<{ trigger_conditions: Array<Record<string, unknown>> }>('creature-form', formId).trigger_conditions;
      const expected = rows.map((row) => {
        const target = row.trigger_item_id || row.trigger_ability_id || row.trigger_move_id;
        return [...(row.base_form_id ? ['base_form'] : []), ...(target ? ['name'] : []), 'trigger', ...(target ? ['url'] : [])];
      });
      expect(got.map((c) => Object.keys(c)), `creature-form ${formId}`).toEqual(expected);
      for (const c of got) expect(Object.values(c), `creature-form ${formId}`).not.toContain(null);
    }
  });
});

describe('held items', () => {
  const rows = table('pokemon_items');
  const creatures = [...new Set(rows.map((r) => r.pokemon_id!))];
  const items = [...new Set(rows.map((r) => r.item_id!))];

  it('a creature lists each held item once, by item id, its versions by version id', () => {
    for (const id of creatures) {
      const held = item<{ held_items: Array<{ item: { url: string }; version_details: Version[] }> }>('creature', id).held_items;
      const itemIds = held.map((h) => Number(/\/item\/(\d+)\/$/.exec(h.item.url)?.[1]));
      expect(ascending(itemIds) && new Set(itemIds).size === itemIds.length, `creature ${id}`).toBe(true);
      for (const h of held) expect(ascending(versionIds(h.version_details)), `creature ${id}`).toBe(true);
    }
  });

  it('an item lists its holders by creature id, their versions by version id', () => {
    for (const id of items) {
      const holders = item<{ held_by_creature: Array<{ creature: { url: string }; version_details: Version[] }> }>('item', id).held_by_creature;
      const creatureIds = holders.map((h) => Number(/\/creature\/(\d+)\/$/.exec(h.creature.url)?.[1]));
      expect(ascending(creatureIds) && new Set(creatureIds).size === creatureIds.length, `item ${id}`).toBe(true);
      for (const h of holders) expect(ascending(versionIds(h.version_details)), `item ${id}`).toBe(true);
    }
  });

  it('the table really has rows out of version order (the case this rule is for)', () => {
    const versionsOf82 = rows.filter((r) => r.pokemon_id === '82' && r.item_id === '210').map((r) => Number(r.version_id));
    expect(ascending(versionsOf82)).toBe(false);
  });
});
