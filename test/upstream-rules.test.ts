/**
 * Rules the upstream follows that the examples show for a few items, checked here for every
 * item of the built API against the tables themselves: which keys a form's trigger condition
 * carries, and the order of held-item versions.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { parseCsv } from '../generator/import/csv.ts';
import { itemFile } from '../contract/layout.ts';
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
const idIn = (url: string) => Number(/\/(\d+)\/$/.exec(url)?.[1]);
const ascending = (ids: number[]) => ids.every((id, i) => i === 0 || ids[i - 1]! <= id);

/** Entries linking `linkField` once each in id order, each with its versions by version id. */
function expectHeldOrder(entries: Array<Record<string, unknown> & { version_details: Version[] }>, linkField: string, label: string) {
  const ids = entries.map((e) => idIn((e[linkField] as { url: string }).url));
  expect(ascending(ids) && new Set(ids).size === ids.length, label).toBe(true);
  for (const e of entries) expect(ascending(e.version_details.map((d) => idIn(d.version.url))), label).toBe(true);
}

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
      expect(
        got.map((c) => Object.keys(c)),
        `creature-form ${formId}`,
      ).toEqual(expected);
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
      expectHeldOrder(item<{ held_items: Array<{ item: { url: string }; version_details: Version[] }> }>('creature', id).held_items, 'item', `creature ${id}`);
    }
  });

  it('an item lists its holders by creature id, their versions by version id', () => {
    for (const id of items) {
      expectHeldOrder(
        item<{ held_by_creature: Array<{ creature: { url: string }; version_details: Version[] }> }>('item', id).held_by_creature,
        'creature',
        `item ${id}`,
      );
    }
  });

  it('the table really has rows out of version order (the case this rule is for)', () => {
    const versionsOf82 = rows.filter((r) => r.pokemon_id === '82' && r.item_id === '210').map((r) => Number(r.version_id));
    expect(ascending(versionsOf82)).toBe(false);
  });
});
