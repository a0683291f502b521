/**
 * A tiny invented build for the request side's query tests (test/query-handler*.test.ts): a kind
 * of 5 critters with a filter index, a search index and field columns, the kind its filter
 * names (`element`, one value held by no critter), and a kind addressed by id only (`chain`);
 * the search indexes of both named kinds packed into one file too, as the build writes them.
 */
import type { FileReader } from '../../edge/handler.ts';
import {
  fieldColumnFile,
  filterIndexFile,
  idOfUrl,
  itemFile,
  languageSearchFile,
  languageSearchPackFile,
  listFile,
  listPackFile,
  metaFile,
  pageFile,
  routesFile,
  searchIndexFile,
  searchPackFile,
  type Routes,
} from '../../contract/layout.ts';
import { paginate, type FullList } from '../../contract/pagination.ts';
import { encodeListPack } from '../../contract/list-pack.ts';
import { encodeFieldColumn, isNamesField, languagesOf, onlyLanguage } from '../../contract/field-column.ts';
import type { Json } from '../../contract/query/fields.ts';
import { encodeFilterPack, type FilterIndexFile, positionGaps } from '../../contract/filter-pack.ts';
import { makeSearchKind, packSearchFiles, type SearchIndexFile } from '../../contract/search-index.ts';
import { encodeSearchPack } from '../../contract/search-pack.ts';

export const baseUrl = 'https://example.test/v2';
const encoder = new TextEncoder();

/** The critters, in list order, with what the indexes say of each. */
export const CRITTERS = [
  {
    id: 1,
    name: 'flarebeast',
    element: ['ember'],
    rare: false,
    speed: 50,
    sprite: 'f.png',
    names: [
      { language: 'fr', name: 'Flambête' },
      { language: 'ja-hrkt', name: 'ホノオジュウ' },
    ],
  },
  { id: 2, name: 'tidecat', element: ['tide'], rare: false, speed: 100, sprite: null, names: [{ language: 'fr', name: 'Marénchat' }] },
  { id: 3, name: 'leafmouse', element: ['leaf'], rare: false, speed: 20, sprite: 'l.png', names: [] },
  { id: 4, name: 'sparkfox', element: ['ember', 'tide'], rare: true, speed: null, sprite: 's.png', names: [{ language: 'de', name: 'Funkenfuchs' }] },
  { id: 5, name: 'stonebear', element: ['leaf'], rare: false, speed: 80, sprite: 'b.png', names: [] },
];
const ELEMENTS = [
  { id: 1, name: 'ember' },
  { id: 2, name: 'tide' },
  { id: 3, name: 'leaf' },
  { id: 4, name: 'volt' },
];

export const entry = (kind: string, id: number, name?: string) => ({ ...(name === undefined ? {} : { name }), url: `${baseUrl}/${kind}/${id}/` });
const critterList = { count: CRITTERS.length, results: CRITTERS.map((c) => entry('critter', c.id, c.name)) };
const elementList = { count: ELEMENTS.length, results: ELEMENTS.map((e) => entry('element', e.id, e.name)) };
const chainList = { count: 2, results: [entry('chain', 1), entry('chain', 2)] };

const routes: Routes = {
  kinds: ['critter', 'element', 'chain'],
  subresources: {},
  idOnly: ['chain'],
  site: {},
  queries: {
    critter: {
      filters: [
        { name: 'element', about: 'an element', target: 'element' },
        { name: 'is_rare', about: 'yes or no', target: null },
      ],
      ranges: [{ name: 'speed', about: 'base speed' }],
      fields: ['id', 'names', 'element', 'sprites.front_default', 'stats'],
      below: ['names.name', 'names.language', 'names.language.name', 'names.language.url', 'element.name', 'stats.base_stat', 'stats.stat', 'stats.stat.name'],
    },
  },
};

const members = (test: (c: (typeof CRITTERS)[number]) => boolean) => positionGaps(CRITTERS.flatMap((c, p) => (test(c) ? [p] : [])));
const filterIndex: FilterIndexFile = {
  format: 'filter-index/1',
  kind: 'critter',
  count: CRITTERS.length,
  values: {
    // volt is held by no critter, so the index does not list it
    element: { about: 'an element', target: 'element', values: ELEMENTS.slice(0, 3).map((e) => [e.name, e.id, members((c) => c.element.includes(e.name))]) },
    // no critter is rare and slow: both values are held here
    is_rare: {
      about: 'yes or no',
      values: [
        ['false', 0, members((c) => !c.rare)],
        ['true', 1, members((c) => c.rare)],
      ],
    },
  },
  ranges: { speed: CRITTERS.map((c) => c.speed) },
};
const languages = ['fr', 'de', 'ja-hrkt'];
const searchFile = (
  kind: string,
  resources: { id: number; name: string; names: { language: string; name: string }[] }[],
  byLanguage = false,
): SearchIndexFile => ({
  format: 'search-index/2',
  languages,
  kinds: [makeSearchKind(kind, resources, languages, byLanguage)],
});
/** The languages `lang=` takes: the language kind's list (en has no name here). */
const languageList = { count: 4, results: ['en', ...languages].map((name, i) => entry('language', i + 1, name)) };
const stats = (c: (typeof CRITTERS)[number]) => [
  { base_stat: c.speed, stat: { name: 'speed' } },
  { base_stat: c.id * 10, stat: { name: 'hp' } },
];
/** A column as the build writes it; a `names` column also in each language its lists use (en: none). */
const columns = (field: string, values: Json[]): Array<[string, Uint8Array]> => [
  [fieldColumnFile('critter', field), encoder.encode(encodeFieldColumn({ kind: 'critter', field }, values))],
  ...(isNamesField(field) ? languagesOf(values) : []).map((lang): [string, Uint8Array] => [
    fieldColumnFile('critter', field, lang),
    encoder.encode(
      encodeFieldColumn(
        { kind: 'critter', field, lang },
        values.map((v) => onlyLanguage(v, lang)),
      ),
    ),
  ]),
];

const critterSearch = searchFile('critter', CRITTERS);
const elementNames = ELEMENTS.map((e) => ({ ...e, names: e.name === 'tide' ? [{ language: 'fr', name: 'Marée' }] : [] }));
const elementSearch = searchFile('element', elementNames);
const critterByLanguage = searchFile('critter', CRITTERS, true);
const elementByLanguage = searchFile('element', elementNames, true);

/** A list's JSON and its packed form (what queries read), as the build writes both. */
export const listFiles = (kind: string, list: FullList, links: Record<string, (number | null)[]> = {}): Array<[string, unknown]> => [
  [listFile(kind), list],
  [listPackFile(kind), encodeListPack({ kind, entries: list.results.map(({ name, url }) => ({ id: idOfUrl(url)!, name: name ?? null })), links })],
];

export const FIXTURE = new Map<string, unknown>([
  [routesFile, routes],
  [metaFile, { upstream_commit: 'f'.repeat(40), base_url: baseUrl }],
  ...listFiles('critter', critterList),
  ...listFiles('element', elementList),
  ...listFiles('chain', chainList),
  [pageFile('critter', 0), paginate(critterList, `${baseUrl}/critter/`, 0, 20)],
  [itemFile('critter', 1), { id: 1, name: 'flarebeast' }],
  [filterIndexFile('critter'), encodeFilterPack(filterIndex)],
  [searchIndexFile('critter'), critterSearch],
  [searchIndexFile('element'), elementSearch],
  [searchPackFile, encodeSearchPack(packSearchFiles([critterSearch, elementSearch]))],
  ...listFiles('language', languageList),
  [languageSearchFile('critter'), critterByLanguage],
  [languageSearchFile('element'), elementByLanguage],
  [languageSearchPackFile, encodeSearchPack(packSearchFiles([critterByLanguage, elementByLanguage]))],
  ...columns(
    'names',
    CRITTERS.map((c) => c.names.map((n) => ({ name: n.name, language: entry('language', languages.indexOf(n.language) + 2, n.language) }))),
  ),
  ...columns(
    'id',
    CRITTERS.map((c) => c.id),
  ),
  ...columns(
    'element',
    CRITTERS.map((c) => c.element.map((name) => ({ name }))),
  ),
  ...columns(
    'sprites.front_default',
    CRITTERS.map((c) => c.sprite),
  ),
  ...columns('stats', CRITTERS.map(stats)),
]);

/** A fixture file's bytes: as they are for a binary file, else its value as JSON. */
export const fixtureBytes = (value: unknown): Uint8Array => (value instanceof Uint8Array ? value : encoder.encode(JSON.stringify(value)));

export const fixtureReader = (files: Map<string, unknown> = FIXTURE): FileReader => ({
  read: async (path) => (files.has(path) ? fixtureBytes(files.get(path)) : null),
});
