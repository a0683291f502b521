/**
 * The docs page as a person uses it: Debian's Chromium, headless, against the preview of the data
 * cut's build (generator/cut: the page is built from the build's data, so it names the cut's
 * items). It opens `/`, tries `/v2/creature/1`, follows a link in the answer, uses the keyboard
 * only, checks text contrast in both colour schemes, and saves screenshots under test-output/.
 * The page's few examples that need items the cut lacks are checked on the full build, by HTTP.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { coverageFile, itemFile, listFile, routesFile, type Routes } from '../edge/layout.ts';
import type { CoverageMap } from '../schemas/output/coverage.ts';
import { GRAPHQL_EXAMPLES } from '../generator/emit/graphql-page.ts';

const origin = inject('cutPreviewUrl');
const fullOrigin = inject('previewUrl');
const base = inject('baseUrl');
const distDir = inject('cutDistDir');
const chromiumLookup = inject('chromium');
const outputDir = fileURLToPath(new URL('../test-output/', import.meta.url));

// This machine has no network besides the package registries: no background traffic of any kind.
const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
];

const distJson = (path: string) => JSON.parse(readFileSync(join(distDir, path), 'utf8')) as unknown;
const pretty = (path: string) => JSON.stringify(distJson(path), null, 2);

let browser: Browser;
/**
 * One context for every test: the page keeps no cookies or storage, so a fresh page in it is as
 * clean as a fresh context, and the first page of a context (a new renderer) costs seconds.
 */
let context: BrowserContext;

beforeAll(async () => {
  if ('missing' in chromiumLookup) throw new Error(chromiumLookup.missing);
  mkdirSync(outputDir, { recursive: true });
  browser = await chromium.launch({ executablePath: chromiumLookup.path, args: ARGS, headless: true });
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
});

afterAll(async () => {
  await browser?.close();
});

/** A fresh page whose requests may go to the preview only; anything else is recorded and refused. */
async function openPage(colorScheme: 'light' | 'dark' = 'light'): Promise<{ page: Page; elsewhere: string[]; errors: string[] }> {
  const page = await context.newPage();
  await page.emulateMedia({ colorScheme });
  const elsewhere: string[] = [];
  const errors: string[] = [];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${origin}/`)) return route.continue();
    elsewhere.push(url);
    return route.abort();
  });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    // the browser logs each non-2xx fetch; a 404 or 400 the page shows on purpose is not a page error
    if (m.type() === 'error' && !/^Failed to load resource: the server responded with a status of 40[04]/.test(m.text())) errors.push(m.text());
  });
  return { page, elsewhere, errors };
}

type Opened = Awaited<ReturnType<typeof openPage>>;
let shared: Promise<Opened> | undefined;
/**
 * One page at `/`, loaded once, for the tests that only read it (no click, no typing, no hash):
 * loading this page, tens of thousands of pixels of reference, is most of a test's time.
 */
const loadedPage = (): Promise<Opened> =>
  (shared ??= openPage().then(async (opened) => {
    await opened.page.goto(`${origin}/`);
    return opened;
  }));

/**
 * Runs `shoot` with the viewport at least `height` pixels tall. A capture beyond the viewport (the
 * top of this page, or an element taller than the window) makes Playwright lay out the whole page,
 * tens of thousands of pixels tall, at once: seconds each. A viewport that tall draws the same pixels.
 */
async function tallViewport(page: Page, height: number, shoot: () => Promise<unknown>) {
  const viewport = page.viewportSize()!;
  await page.setViewportSize({ width: viewport.width, height: Math.max(viewport.height, Math.ceil(height)) });
  await shoot();
  await page.setViewportSize(viewport);
}

/** Saves the top `height` pixels of the page. */
const screenshotTop = (page: Page, file: string, height: number) =>
  tallViewport(page, height, () => page.screenshot({ path: join(outputDir, file) }));

/** Saves the element, scrolled into a viewport it fits; `before` runs once it is in view (e.g. a hover). */
async function screenshotOf(element: Locator, file: string, before: () => Promise<unknown> = async () => {}) {
  const { height } = (await element.boundingBox())!;
  await tallViewport(element.page(), height, async () => {
    await element.scrollIntoViewIfNeeded();
    await before();
    await element.screenshot({ path: join(outputDir, file) });
  });
}

const status = (page: Page) => page.locator('#try-status');
const output = (page: Page) => page.locator('#try-output');

/** Waits until the live region reports the answer for `path`. */
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
async function answered(page: Page, path: string, code = 200) {
  // e.g. `200 OK · /v2/creature/1 · “bulbasaur” (id 1) · 262.9 kB · 37 ms`
  const line = new RegExp(`^${code} [^·]*· ${escapeRegExp(path)} ·`);
  await expect.poll(() => status(page).textContent(), { timeout: 30_000 }).toMatch(line);
}

describe('the docs page', () => {
  it('is served at / as HTML with its assets, and lists every resource', async () => {
    const response = await fetch(`${origin}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    for (const [asset, type] of [['/docs.js', 'text/javascript; charset=utf-8'], ['/docs.css', 'text/css; charset=utf-8']] as const) {
      const r = await fetch(`${origin}${asset}`);
      expect(r.status, asset).toBe(200);
      expect(r.headers.get('content-type'), asset).toBe(type);
    }

    const { page, elsewhere, errors } = await loadedPage();
    await expect.poll(() => page.title()).toBe('Creature reference API');
    // landmarks and the labelled input
    for (const role of ['banner', 'navigation', 'main', 'contentinfo'] as const) expect(await page.getByRole(role).count(), role).toBeGreaterThan(0);
    await expect.poll(() => page.getByLabel('Request URL').getAttribute('id')).toBe('try-url');
    expect(await page.getByRole('button', { name: 'Send' }).count()).toBe(1);
    expect(await page.getByRole('status').count()).toBe(1);
    // one row per collection, each with a list link, and an example where the list has entries
    const routes = distJson(routesFile) as Routes;
    const rows = page.locator('#resources tbody tr');
    expect(await rows.count()).toBe(routes.kinds.length);
    const listed = await page.locator('#resources tbody th a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect([...listed].sort()).toEqual(routes.kinds.map((k) => `/v2/${k}/`).sort());
    expect(await page.locator('#resources a[href="/v2/creature/bulbasaur"]').count()).toBe(1);
    expect(await page.locator('#resources a[href="/v2/evolution-chain/1"]').count()).toBe(1);
    expect(await page.locator('#resources a[href="/v2/creature/1/encounters"]').count()).toBe(1);
    // the rules, in short
    const rules = (await page.locator('#rules').textContent()) ?? '';
    for (const phrase of ['limit', 'offset', '100000', 'default 20', '“creature”', 'Not Found', 'trailing slash', '?q=TEXT']) expect(rules).toContain(phrase);
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('tries /v2/creature/1, shows it pretty with clickable links, and follows one', async () => {
    const { page, elsewhere, errors } = await openPage();
    await page.goto(`${origin}/`);
    await page.getByLabel('Request URL').fill('/v2/creature/1');
    await page.getByRole('button', { name: 'Send' }).click();
    await answered(page, '/v2/creature/1');
    await expect.poll(() => status(page).textContent()).toContain('“bulbasaur” (id 1)');
    // exactly the document in dist/, pretty-printed
    expect(await output(page).textContent()).toBe(pretty(itemFile('creature', 1)));
    // its species link is a link that opens in the box
    const species = output(page).getByRole('link', { name: `${base}/creature-species/1/`, exact: true });
    expect(await species.count()).toBe(1);
    expect(await species.getAttribute('href')).toBe('/v2/creature-species/1/');
    // every URL under the base URL is such a link
    const apiUrls = (await output(page).textContent())!.match(new RegExp(`"${escapeRegExp(base)}/[^"]*"`, 'g')) ?? [];
    expect(await output(page).locator('a[data-try]').count()).toBe(apiUrls.length);
    await page.screenshot({ path: join(outputDir, 'docs-creature-1.png') });

    await species.click();
    await answered(page, '/v2/creature-species/1/');
    expect(await page.getByLabel('Request URL').inputValue()).toBe('/v2/creature-species/1/');
    expect(await output(page).textContent()).toBe(pretty(itemFile('creature-species', 1)));
    // focus moves to the new answer, which names its evolution chain
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('try-output');
    const chain = output(page).getByRole('link', { name: `${base}/evolution-chain/1/`, exact: true });
    expect(await chain.count()).toBe(1);
    await chain.click();
    await answered(page, '/v2/evolution-chain/1/');
    expect(await output(page).textContent()).toContain('"ivysaur"');

    // the browser's back button returns to the species
    await page.goBack();
    await answered(page, '/v2/creature-species/1/');
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('has a reference per resource: the creature’s fields say decimetres, and a shared shape is one link away', async () => {
    const { page, elsewhere, errors } = await openPage();
    await page.goto(`${origin}/`);
    // from the resource list: the creature row's reference link
    await page.locator('#resources tr', { has: page.locator('a[href="/v2/creature/"]') }).getByRole('link', { name: 'fields' }).click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#ref-creature');
    const creature = page.locator('#ref-creature');
    expect(await creature.isVisible()).toBe(true);
    // each kind has its one fields table (read in one go: a locator per kind is a round trip each)
    const routes = distJson(routesFile) as Routes;
    const tables = await page.evaluate((kinds) => kinds.map((k) => [k, document.querySelectorAll(`article#ref-${k} table.fields`).length] as const), routes.kinds);
    expect(tables).toEqual(routes.kinds.map((k) => [k, 1]));
    // the fields table: the height row's description names the unit, and says the field is never null
    const height = creature.locator('table.fields tbody tr', { has: page.locator('th code', { hasText: /^height$/ }) });
    expect(await height.count()).toBe(1);
    expect(await height.locator('td').nth(0).textContent()).toBe('integer');
    expect(await height.locator('td').nth(1).textContent()).toBe('no');
    expect(await height.locator('td').nth(2).textContent()).toContain('decimetres');
    const weight = creature.locator('table.fields tbody tr', { has: page.locator('th code', { hasText: /^weight$/ }) });
    expect(await weight.locator('td').nth(2).textContent()).toContain('hectograms');
    // every row has a description
    const empty = await page.locator('table.fields tbody td:nth-child(4)').evaluateAll((tds) => tds.filter((td) => !td.textContent?.trim()).length);
    expect(empty).toBe(0);
    // the species row links a shared shape; following it lands on that shape's one section
    const species = creature.locator('table.fields tbody tr', { has: page.locator('th code', { hasText: /^species$/ }) });
    expect(await species.locator('td').nth(2).textContent()).toContain('/creature-species/');
    await species.getByRole('link', { name: 'NamedResource' }).click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#shape-NamedResource');
    const shape = page.locator('#shape-NamedResource');
    expect(await page.locator('[id="shape-NamedResource"]').count()).toBe(1);
    expect(await shape.locator('table.fields tbody th code').allTextContents()).toEqual(['name', 'url']);
    // (the page scrolls smoothly unless reduced motion is asked for: give it time)
    await expect.poll(() => shape.evaluate((el) => Math.abs(el.getBoundingClientRect().top)), { timeout: 10_000 }).toBeLessThan(100);
    // every in-page link of the reference has its target
    const dangling = await page.locator('#reference a[href^="#"], #resources a[href^="#"]').evaluateAll((as) =>
      as.map((a) => a.getAttribute('href')!.slice(1)).filter((id) => !document.getElementById(id)),
    );
    expect(dangling).toEqual([]);
    // the creature's example: an excerpt of the real response, and the whole one in the try box
    await page.goto(`${origin}/#ref-creature`);
    await creature.locator('details.example summary').click();
    const example = (await creature.locator('details.example pre').textContent()) ?? '';
    const bulbasaur = distJson(itemFile('creature', 'bulbasaur')) as { height: number; weight: number };
    expect(example).toContain(`"height": ${bulbasaur.height}`);
    expect(example).toMatch(/… \d+ more/);
    await creature.locator('details.example').getByRole('link', { name: '/v2/creature/bulbasaur' }).click();
    await answered(page, '/v2/creature/bulbasaur');
    // from the try box: the answer's own reference
    const fields = page.getByRole('link', { name: 'Fields of this answer' });
    expect(await fields.getAttribute('href')).toBe('#ref-creature');
    await page.getByLabel('Request URL').fill('/v2/evolution-chain/1');
    await page.getByLabel('Request URL').press('Enter');
    await answered(page, '/v2/evolution-chain/1');
    expect(await fields.getAttribute('href')).toBe('#ref-evolution-chain');
    await fields.click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#ref-evolution-chain');
    // good to know: each point with the request that answers it (the point on deoxys needs the
    // full data set: the cut has no deoxys, so the page leaves it out; see the full build's test below)
    const good = page.locator('#good-to-know');
    const text = (await good.textContent()) ?? '';
    for (const phrase of ['decimetres', 'hectograms', '10001', 'evolution_chain.url', '\\f']) expect(text).toContain(phrase);
    for (const path of ['/v2/creature/bulbasaur', '/v2/creature-species/ivysaur', '/v2/evolution-chain/1']) expect(await good.locator(`a[data-try][href="${path}"]`).count(), path).toBe(1);
    await screenshotOf(creature, 'docs-reference-creature.png');
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('works from the keyboard alone, with a visible focus', async () => {
    const { page, errors } = await openPage();
    await page.goto(`${origin}/`);
    // the first Tab reaches the skip link; following it lands just before the input
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to “Try it”');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('try-url');
    const outline = await page.evaluate(() => {
      const s = getComputedStyle(document.activeElement!);
      return { style: s.outlineStyle, width: parseFloat(s.outlineWidth) };
    });
    expect(outline.style).toBe('solid');
    expect(outline.width).toBeGreaterThanOrEqual(2);

    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('type/fire');
    await page.keyboard.press('Enter');
    await answered(page, '/v2/type/fire');
    expect(await output(page).textContent()).toBe(pretty(itemFile('type', 'fire')));
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('try-url');

    // a full URL under the base URL is read as its path; the 404 is shown as the API answers it
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(`${base}/creature/missingno`);
    await page.keyboard.press('Enter');
    await answered(page, '/v2/creature/missingno', 404);
    expect(await output(page).textContent()).toBe('"Not Found"');

    // the Send button works with the keyboard too (the cut holds 6 moves: offset 1 leaves a full page of 5)
    const moves = distJson(listFile('move')) as { count: number; results: { name: string }[] };
    expect(moves.count).toBeGreaterThanOrEqual(6);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('/v2/move/?offset=1&limit=5');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('try-send');
    await page.keyboard.press('Space');
    await answered(page, '/v2/move/?offset=1&limit=5');
    await expect.poll(() => status(page).textContent()).toContain('5 on this page');
    const paged = (await shownJson(page)) as { results: { name: string }[] };
    expect(paged.results.map((m) => m.name)).toEqual(moves.results.slice(1, 6).map((m) => m.name));

    // something not under /v2/ is refused with a message, not fetched
    await page.getByLabel('Request URL').fill('https://example.com/');
    await page.getByLabel('Request URL').press('Enter');
    await expect.poll(() => status(page).textContent()).toContain('Only URLs under /v2/');
    expect(await page.getByLabel('Request URL').getAttribute('aria-invalid')).toBe('true');
    expect(errors).toEqual([]);
    await page.close();
  });

  it.each(['light', 'dark'] as const)('has text contrast of at least 4.5:1 in the %s scheme', async (scheme) => {
    const { page } = await openPage(scheme);
    await page.goto(`${origin}/#try=/v2/creature/25`);
    await answered(page, '/v2/creature/25');
    const failures = await page.evaluate(lowContrast);
    expect(failures).toEqual([]);
    // the top of the page: with the reference the whole page is tens of thousands of pixels tall
    await screenshotTop(page, `docs-${scheme}.png`, 5000);
    await page.close();
  });
});

interface BuiltCreature {
  types: { type: { name: string } }[];
  moves: { move: { name: string } }[];
  base_experience: number | null;
  species: { url: string };
}
interface BuiltSpecies {
  generation: { name: string };
  names: { name: string; language: { name: string } }[];
}

/** Every creature of the build's list with its item and its species, in list order: what the oracles read. */
function builtCreatures(): { name: string; creature: BuiltCreature; species: BuiltSpecies }[] {
  const list = distJson(listFile('creature')) as { results: { name: string; url: string }[] };
  return list.results.map(({ name, url }) => {
    const creature = distJson(itemFile('creature', /\/(\d+)\/$/.exec(url)![1]!)) as BuiltCreature;
    const species = distJson(itemFile('creature-species', /\/(\d+)\/$/.exec(creature.species.url)![1]!)) as BuiltSpecies;
    return { name, creature, species };
  });
}

/** Every creature of the build's list whose item and species satisfy `keep`, by name, in list order: the oracle of a filter. */
const creaturesWhere = (keep: (creature: BuiltCreature, species: BuiltSpecies) => boolean): string[] =>
  builtCreatures().flatMap(({ name, creature, species }) => (keep(creature, species) ? [name] : []));

/** The answer the try box shows, parsed. */
const shownJson = async (page: Page) => JSON.parse((await output(page).textContent()) ?? 'null') as unknown;

/** Waits for the answer to a type and generation filter and compares it with the oracle; returns the oracle's size. */
async function expectFilterAnswer(page: Page, path: string, type: string, generation: string): Promise<number> {
  await answered(page, path);
  const oracle = creaturesWhere((c, s) => c.types.some((t) => t.type.name === type) && s.generation.name === generation);
  const answer = (await shownJson(page)) as { count: number; results: { name: string }[] };
  expect(answer.count, path).toBe(oracle.length);
  expect(answer.results.map((r) => r.name), path).toEqual(oracle.slice(0, 20));
  return oracle.length;
}

describe('the docs page: filter and search', () => {
  it('has a "Filter and search" section whose examples open in the try box, and a row per collection that declares queries', async () => {
    const { page, elsewhere, errors } = await loadedPage();
    const section = page.locator('#filter-search');
    expect(await section.getByRole('heading', { name: 'Filter and search', exact: true }).count()).toBe(1);
    expect(await page.locator('nav.toc a[href="#filter-search"]').count()).toBe(1);
    for (const path of ['/v2/creature/?type=fire&generation=generation-iii', '/v2/creature/?speed=100..&fields=types,sprites.front_default', '/v2/creature-species/?q=ピカチュウ', '/v2/search/?q=charzard', '/v2/creature/?type=firee']) {
      expect(await section.locator(`a[data-try][href="${path}"]`).count(), path).toBe(1);
    }
    const routes = distJson(routesFile) as Routes;
    const declared = Object.entries(routes.queries).filter(([, q]) => q.filters.length + q.ranges.length + q.fields.length > 0);
    expect(await section.locator('#query-parameters tbody tr').count()).toBe(declared.length);
    for (const [kind, q] of declared) {
      const row = section.locator('#query-parameters tbody tr', { has: page.locator(`th a[href="/v2/${kind}/"]`) });
      const text = (await row.textContent()) ?? '';
      for (const name of [...q.filters.map((f) => f.name), ...q.ranges.map((r) => r.name), ...q.fields]) expect(text, `${kind} ${name}`).toContain(name);
    }
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('runs the search example in the try box: charzard lists charizard first, and the answer links its reference', async () => {
    const { page, elsewhere, errors } = await openPage();
    await page.goto(`${origin}/`);
    await page.locator('#filter-search a[data-try][href="/v2/search/?q=charzard"]').click();
    await answered(page, '/v2/search/?q=charzard');
    const answer = (await shownJson(page)) as { count: number; results: { name: string; kind: string; url: string; matched_name: string; language: string | null }[] };
    expect(answer.count).toBeGreaterThan(0);
    expect(answer.results[0]).toMatchObject({ name: 'charizard', matched_name: 'charizard', language: null });
    expect(answer.results[0]!.url).toBe(`${base}/${answer.results[0]!.kind}/6/`);
    expect(await page.getByRole('link', { name: 'Fields of this answer' }).getAttribute('href')).toBe('#shape-SearchPage');
    await page.screenshot({ path: join(outputDir, 'docs-search.png') });
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('runs the filter example, and the same filter where the cut has more than a page, as the built documents say, and a 400 for a type that is not one', async () => {
    const { page, elsewhere, errors } = await openPage();
    await page.goto(`${origin}/`);
    // the page's example: the cut has no fire creature of generation III, so the oracle is empty here
    await page.locator('#filter-search a[data-try][href="/v2/creature/?type=fire&generation=generation-iii"]').click();
    await expectFilterAnswer(page, '/v2/creature/?type=fire&generation=generation-iii', 'fire', 'generation-iii');
    // the same request where the cut has more matches than a page of 20: the first page is the oracle's
    await page.getByLabel('Request URL').fill('/v2/creature/?type=electric&generation=generation-i');
    await page.getByLabel('Request URL').press('Enter');
    expect(await expectFilterAnswer(page, '/v2/creature/?type=electric&generation=generation-i', 'electric', 'generation-i')).toBeGreaterThan(20);

    await page.locator('#filter-search a[data-try][href="/v2/creature/?type=firee"]').click();
    await answered(page, '/v2/creature/?type=firee', 400);
    expect(await shownJson(page)).toMatchObject({ error: 'bad_parameter', parameter: 'type', value: 'firee' });
    await expect.poll(() => status(page).textContent()).toContain('parameter “type” does not take “firee”');
    expect(await page.getByRole('link', { name: 'Fields of this answer' }).getAttribute('href')).toBe('#shape-BadParameter');
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});

/** The request of the upstream's example `file` (the first, when a file asks two questions). */
const graphqlPath = (file: string) => GRAPHQL_EXAMPLES.find((e) => e.file === file)!.path;

describe('the docs page: coming from GraphQL', () => {
  it('has a "Coming from GraphQL" section with each example’s request as a try link', async () => {
    const { page, elsewhere, errors } = await loadedPage();
    const section = page.locator('#from-graphql');
    expect(await section.getByRole('heading', { name: 'Coming from GraphQL', exact: true }).count()).toBe(1);
    expect(await page.locator('nav.toc a[href="#from-graphql"]').count()).toBe(1);
    expect(await section.locator('#graphql-examples tbody tr').count()).toBe(GRAPHQL_EXAMPLES.length);
    for (const { file, path } of GRAPHQL_EXAMPLES) {
      expect(await section.locator(`a[data-try][href="${path}"]`).count(), file).toBe(1);
    }
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('runs weakestPokemonAbleToBeatFireRedAlone.gql’s request with three moves the cut holds: all three moves, lowest base experience first, English species names, as the built documents say', async () => {
    // the example asks for strength, cut and surf, which the cut does not hold (the full build answers it, below);
    // tackle, protect and bite: five creatures of generation I, three of them tied on base experience
    const moves = ['tackle', 'protect', 'bite'];
    const example = graphqlPath('weakestPokemonAbleToBeatFireRedAlone.gql');
    const path = example.replace('move=strength&move=cut&move=surf', moves.map((m) => `move=${m}`).join('&'));
    expect(path).not.toBe(example);
    const { page, elsewhere, errors } = await openPage();
    await page.goto(`${origin}/`);
    await page.getByLabel('Request URL').fill(path);
    await page.getByLabel('Request URL').press('Enter');
    await answered(page, path);
    const shown = (await shownJson(page)) as { count: number; results: { name: string; base_experience: number | null; species: { names: unknown[] } }[] };
    expect(shown).toEqual(await (await fetch(`${origin}${path}`)).json());
    const learns = (c: BuiltCreature, move: string) => c.moves.some((m) => m.move.name === move);
    const oracle = builtCreatures()
      .filter(({ creature: c, species: s }) => s.generation.name === 'generation-i' && moves.every((m) => learns(c, m)))
      // a stable sort keeps list order among ties; a creature without base experience goes last
      .sort((a, b) => (a.creature.base_experience ?? Infinity) - (b.creature.base_experience ?? Infinity));
    expect(oracle.length).toBeGreaterThan(1);
    expect(shown.count).toBe(oracle.length);
    expect(shown.results.map((r) => r.name)).toEqual(oracle.slice(0, 20).map((o) => o.name));
    expect(shown.results[0]).toEqual({
      name: oracle[0]!.name,
      url: expect.any(String),
      base_experience: oracle[0]!.creature.base_experience,
      species: { names: oracle[0]!.species.names.filter((n) => n.language.name === 'en') },
    });
    expect(shown.results[0]!.species.names).toHaveLength(1);
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('runs gen3_species.gql’s request: the species count per generation, as the built documents say', async () => {
    const path = graphqlPath('gen3_species.gql');
    const { page, elsewhere, errors } = await openPage();
    await page.goto(`${origin}/`);
    await page.locator(`#from-graphql a[data-try][href="${path}"]`).click();
    await answered(page, path);
    const shown = (await shownJson(page)) as { count: number; facets: { generation: { name: string; count: number }[] } };
    expect(shown).toEqual(await (await fetch(`${origin}${path}`)).json());
    const list = distJson(listFile('creature-species')) as { count: number; results: { url: string }[] };
    const perGeneration = new Map<string, number>();
    for (const { url } of list.results) {
      const name = (distJson(itemFile('creature-species', /\/(\d+)\/$/.exec(url)![1]!)) as BuiltSpecies).generation.name;
      perGeneration.set(name, (perGeneration.get(name) ?? 0) + 1);
    }
    expect(shown.count).toBe(list.count);
    expect(new Map(shown.facets.generation.map((f) => [f.name, f.count]))).toEqual(perGeneration);
    // in the generations' own list order
    const generations = (distJson(listFile('generation')) as { results: { name: string }[] }).results.map((g) => g.name);
    expect(shown.facets.generation.map((f) => f.name)).toEqual(generations.filter((g) => perGeneration.has(g)));
    expect(shown.facets.generation.reduce((sum, f) => sum + f.count, 0)).toBe(list.count);
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});

/**
 * What the page says that only the whole data set bears out: read over HTTP from the full build's
 * preview (no browser), since the cut lacks the items these examples name.
 */
describe('the docs page on the full build: examples that name items the cut lacks', () => {
  it('answers each "Coming from GraphQL" request with 200', async () => {
    for (const { path } of GRAPHQL_EXAMPLES) expect((await fetch(`${fullOrigin}${path}`)).status, path).toBe(200);
  });

  it('says in good to know that a species name is not always a creature name, with deoxys’s two requests, answered as it says', async () => {
    const html = await (await fetch(`${fullOrigin}/`)).text();
    const good = /<section id="good-to-know"[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
    expect(good).toContain('deoxys-normal');
    for (const path of ['/v2/creature/deoxys', '/v2/creature-species/deoxys']) expect(good, path).toMatch(new RegExp(`<a [^>]*data-try[^>]* href="${escapeRegExp(path)}"`));
    expect((await fetch(`${fullOrigin}/v2/creature/deoxys`)).status).toBe(404);
    const species = (await (await fetch(`${fullOrigin}/v2/creature-species/deoxys`)).json()) as { varieties: { is_default: boolean; creature: { name: string } }[] };
    expect(species.varieties.find((v) => v.is_default)?.creature.name).toBe('deoxys-normal');
  });
});

describe('the docs page: coverage map', () => {
  it('draws a heat map per covered kind, generations by fields, and a cell says the number /v2/meta/coverage/ says', async () => {
    const served = (await (await fetch(`${origin}/v2/meta/coverage/`)).json()) as CoverageMap;
    expect(served).toEqual(distJson(coverageFile));
    const { page, elsewhere, errors } = await loadedPage();
    expect(await page.locator('nav.toc a[href="#coverage"]').count()).toBe(1);
    const section = page.locator('#coverage');
    for (const k of served.kinds) {
      const table = section.locator(`table#coverage-${k.kind}`);
      expect(await table.locator('tbody tr').count(), k.kind).toBe(k.fields.length);
      expect(await table.locator('thead th[scope="col"]').count(), k.kind).toBe(k.generations.length + 1);
      expect(await table.locator('tbody td').count(), k.kind).toBe(k.fields.length * k.generations.length);
    }
    // a cell with a gap, picked from the JSON: its hover title and its screen-reader text give the JSON's number
    const species = served.kinds.find((k) => k.kind === 'creature-species')!;
    const generation = species.generations[species.generations.length - 1]!;
    const [field, wanted] = Object.entries(generation.fields).find(([, c]) => c.gaps > 0 && c.gaps < generation.count)!;
    const td = section.locator(`td[data-kind="creature-species"][data-generation="${generation.generation}"][data-field="${field}"]`);
    expect(Number(await td.getAttribute('data-share'))).toBe(wanted.share);
    const shown = `${(wanted.share * 100).toFixed(1)}%`;
    expect(await td.locator('.visually-hidden').textContent()).toBe(shown);
    expect(await td.getAttribute('title')).toContain(`${wanted.gaps} of ${generation.count} lacking (${shown})`);
    // drawn: the cell has the colour of its band, not the page's background
    const colour = await td.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(colour).not.toBe('rgba(0, 0, 0, 0)');
    await screenshotOf(section.locator('table#coverage-creature-species'), 'docs-coverage.png', () => td.hover());
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe('the docs page on a narrow screen', () => {
  it('fits 360 px without scrolling sideways', async () => {
    const { page, elsewhere, errors } = await openPage();
    await page.setViewportSize({ width: 360, height: 780 });
    await page.goto(`${origin}/#try=/v2/creature/1`);
    await answered(page, '/v2/creature/1');
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, viewport: document.documentElement.clientWidth }));
    expect(widths.page).toBeLessThanOrEqual(widths.viewport);
    await screenshotTop(page, 'docs-narrow.png', 8000);
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});

/**
 * Runs in the page: every visible element with text of its own whose colour is below 4.5:1
 * against the background it is drawn on (ancestors' backgrounds composed, alpha included).
 */
function lowContrast(): string[] {
  const parse = (c: string): [number, number, number, number] => {
    const m = c.match(/rgba?\(([^)]+)\)/);
    if (!m) return [0, 0, 0, 0];
    const [r = 0, g = 0, b = 0, a = 1] = m[1]!.split(/[ ,/]+/).filter(Boolean).map(Number);
    return [r, g, b, a];
  };
  const over = (top: number[], bottom: number[]) => {
    const a = top[3]!;
    return [0, 1, 2].map((i) => top[i]! * a + bottom[i]! * (1 - a)).concat(1);
  };
  const background = (el: Element | null): number[] => {
    const layers: number[][] = [];
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    let color = [255, 255, 255, 1];
    for (const layer of layers.reverse()) color = over(layer, color);
    return color;
  };
  const luminance = (c: number[]) => {
    const [r, g, b] = c.slice(0, 3).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const failures: string[] = [];
  const seen = new Set<string>();
  for (const el of Array.from(document.body.querySelectorAll('*'))) {
    const own = Array.from(el.childNodes).some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== '');
    if (!own) continue;
    const rect = el.getBoundingClientRect();
    if (rect.width <= 1 || rect.height <= 1 || rect.bottom < 0) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    const bg = background(el);
    const fg = over(parse(style.color), bg);
    const [hi, lo] = [luminance(fg), luminance(bg)].sort((a, b) => b - a) as [number, number];
    const ratio = (hi + 0.05) / (lo + 0.05);
    const key = `${el.tagName}.${el.className}:${style.color} on ${bg.join(',')}`;
    if (ratio < 4.5 && !seen.has(key)) {
      seen.add(key);
      failures.push(`${key} = ${ratio.toFixed(2)}:1 (“${el.textContent!.trim().slice(0, 40)}”)`);
    }
  }
  return failures;
}
