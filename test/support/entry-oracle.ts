/**
 * What an entry should be, read off the documents the upstream has (the creature, its species,
 * its forms and its evolution chain), never off the entry's own code: the tests of the entry
 * compare the build's with this.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { idOfUrl, itemFile } from '../../contract/layout.ts';

export type Doc = Record<string, unknown>;
type Link = { name: string; url: string };
export interface ChainLink {
  species: Link;
  evolution_details: unknown[];
  evolves_to: ChainLink[];
}

/** Where the oracle reads an item document of the build. */
export interface DocSource {
  get(kind: string, id: number): Doc;
}

/** The item documents of the build in `distDir`, each file read and parsed once. */
export function distDocs(distDir: string): DocSource {
  const cache = new Map<string, Doc>();
  return {
    get(kind, id) {
      const key = `${kind}/${id}`;
      let doc = cache.get(key);
      if (!doc) cache.set(key, (doc = JSON.parse(readFileSync(join(distDir, itemFile(kind, id)), 'utf8')) as Doc));
      return doc;
    },
  };
}

const idOf = (url: string) => idOfUrl(url)!;
const urlOf = (link: unknown) => (link as { url: string }).url;

/** The links from the chain's root down to the species', or none when the chain does not hold it. */
export function pathTo(link: ChainLink, species: string): ChainLink[] {
  if (link.species.name === species) return [link];
  for (const next of link.evolves_to) {
    const below = pathTo(next, species);
    if (below.length) return [link, ...below];
  }
  return [];
}

/** The species' place in its chain, as the chain document says. */
export function expectedEvolution(docs: DocSource, species: Doc) {
  const chainLink = species.evolution_chain as { url: string };
  const chain = docs.get('evolution-chain', idOf(chainLink.url)).chain as ChainLink;
  const path = pathTo(chain, species.name as string);
  const own = path.at(-1)!;
  const above = path.at(-2);
  return {
    chain: chainLink,
    stage: path.length,
    from: above ? { species: above.species, evolution_details: own.evolution_details } : null,
    to: own.evolves_to.map((next) => ({ species: next.species, evolution_details: next.evolution_details })),
  };
}

/** The entry of creature `id`, field by field in the entry's order. */
export function expectedEntry(docs: DocSource, id: number): Doc {
  const creature = docs.get('creature', id);
  const species = docs.get('creature-species', idOf(urlOf(creature.species)));
  const stats = creature.stats as Array<{ base_stat: number }>;
  const fromSpecies = (...keys: string[]) => Object.fromEntries(keys.map((k) => [k, species[k]]));
  return {
    id,
    name: creature.name,
    is_default: creature.is_default,
    creature: { name: creature.name, url: urlOf(creature.species).replace(/creature-species\/\d+\/$/, `creature/${id}/`) },
    species: creature.species,
    types: creature.types,
    abilities: creature.abilities,
    stats: creature.stats,
    base_stat_total: stats.reduce((sum, s) => sum + s.base_stat, 0),
    height: creature.height,
    weight: creature.weight,
    base_experience: creature.base_experience,
    ...fromSpecies('generation', 'color', 'shape', 'habitat', 'egg_groups', 'growth_rate', 'gender_rate', 'capture_rate', 'base_happiness'),
    ...fromSpecies('hatch_counter', 'is_baby', 'is_legendary', 'is_mythical', 'names', 'genera', 'pokedex_numbers', 'varieties'),
    forms: (creature.forms as Link[]).map((link) => {
      const form = docs.get('creature-form', idOf(link.url));
      return {
        name: form.name,
        url: link.url,
        form_name: form.form_name,
        is_default: form.is_default,
        is_mega: form.is_mega,
        is_battle_only: form.is_battle_only,
      };
    }),
    evolution: expectedEvolution(docs, species),
    flavor_text_entries: species.flavor_text_entries,
    sprites: creature.sprites,
    cries: creature.cries,
  };
}

/**
 * Which creature each name addresses: its own name first, then a species' name (its default
 * variety), then a form's name (the form's creature), each the first (lowest id) that has it.
 */
export function expectedAliases(
  docs: DocSource,
  creatureIds: readonly number[],
  speciesIds: readonly number[],
  formIds: readonly number[],
): Map<string, number> {
  const owners = new Map<string, number>();
  const claim = (name: string, id: number) => {
    if (!owners.has(name)) owners.set(name, id);
  };
  for (const id of creatureIds) claim(docs.get('creature', id).name as string, id);
  for (const id of speciesIds) {
    const varieties = docs.get('creature-species', id).varieties as Array<{ is_default: boolean; creature: Link }>;
    const main = varieties.find((v) => v.is_default);
    if (main) claim(docs.get('creature-species', id).name as string, idOf(main.creature.url));
  }
  for (const id of formIds) {
    const form = docs.get('creature-form', id);
    claim(form.name as string, idOf(urlOf(form.creature)));
  }
  return owners;
}
