/**
 * What the two docs-page files (test/e2e.test.ts, test/e2e-try.test.ts) share: Debian's Chromium,
 * headless, with one context per file; a page that may reach the preview of the data cut's build
 * and nothing else; the try box's status line; screenshots under test-output/; and the oracles
 * that read the cut's built documents a filter or a typed query is checked against.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { itemFile, listFile } from '../../contract/layout.ts';

export const origin = inject('cutPreviewUrl');
export const base = inject('baseUrl');
const distDir = inject('cutDistDir');
const chromiumLookup = inject('chromium');
export const outputDir = fileURLToPath(new URL('../../test-output/', import.meta.url));

// This machine has no network besides the package registries: no background traffic of any kind.
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export const distJson = (path: string) => JSON.parse(readFileSync(join(distDir, path), 'utf8')) as unknown;
export const pretty = (path: string) => JSON.stringify(distJson(path), null, 2);

let browser: Browser | undefined;
/**
 * One context for every test of a file: the page keeps no cookies or storage, so a fresh page in
 * it is as clean as a fresh context, and the first page of a context (a new renderer) costs seconds.
 */
let context: BrowserContext | undefined;

/** Launches Chromium before the calling file's tests and closes it after them; call once, at the file's top level. */
export function useChromium(): void {
  beforeAll(async () => {
    if ('missing' in chromiumLookup) throw new Error(chromiumLookup.missing);
    mkdirSync(outputDir, { recursive: true });
    browser = await chromium.launch({ executablePath: chromiumLookup.path, args: ARGS, headless: true });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  });
  afterAll(async () => {
    await browser?.close();
    [browser, context, shared, trying] = [undefined, undefined, undefined, undefined];
  });
}

/** A fresh page whose requests may go to the preview only (the data cut's, or the one at `at`); anything else is recorded and refused. */
export async function openPage(colorScheme: 'light' | 'dark' = 'light', at = origin): Promise<{ page: Page; elsewhere: string[]; errors: string[] }> {
  if (!context) throw new Error('no browser: call useChromium() at the top of the test file');
  const page = await context.newPage();
  await page.emulateMedia({ colorScheme });
  const elsewhere: string[] = [];
  const errors: string[] = [];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${at}/`)) return route.continue();
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
 * One page at `/`, loaded once per file, for the tests that only read it (no click, no typing, no
 * hash): loading this page, tens of thousands of pixels of reference, is most of a test's time.
 */
export const loadedPage = (): Promise<Opened> =>
  (shared ??= openPage().then(async (opened) => {
    await opened.page.goto(`${origin}/`);
    return opened;
  }));

let trying: Promise<Opened> | undefined;
/**
 * One page at `/`, loaded once per file, for the tests that only use the try box (follow an
 * example, type a request, read the answer): each answer is told from the last by its path in the
 * status line (`answered`), and loading the page is a second or two of each such test.
 * Its `elsewhere` and `errors` hold what every test that used it met.
 */
export const tryPage = (): Promise<Opened> =>
  (trying ??= openPage().then(async (opened) => {
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
export const screenshotTop = (page: Page, file: string, height: number) => tallViewport(page, height, () => page.screenshot({ path: join(outputDir, file) }));

/** Saves the element, scrolled into a viewport it fits; `before` runs once it is in view (e.g. a hover). */
export async function screenshotOf(element: Locator, file: string, before: () => Promise<unknown> = async () => {}) {
  const { height } = (await element.boundingBox())!;
  await tallViewport(element.page(), height, async () => {
    await element.scrollIntoViewIfNeeded();
    await before();
    await element.screenshot({ path: join(outputDir, file) });
  });
}

export const status = (page: Page) => page.locator('#try-status');
export const output = (page: Page) => page.locator('#try-output');

export const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** Waits until the live region reports the answer for `path`. */
export async function answered(page: Page, path: string, code = 200) {
  // e.g. `200 OK · /v2/creature/1 · “bulbasaur” (id 1) · 262.9 kB · 37 ms`
  const line = new RegExp(`^${code} [^·]*· ${escapeRegExp(path)} ·`);
  await expect.poll(() => status(page).textContent(), { timeout: 30_000 }).toMatch(line);
}

/** The answer the try box shows, parsed. */
export const shownJson = async (page: Page) => JSON.parse((await output(page).textContent()) ?? 'null') as unknown;

export interface BuiltCreature {
  types: { type: { name: string } }[];
  moves: { move: { name: string } }[];
  base_experience: number | null;
  species: { url: string };
}
export interface BuiltSpecies {
  generation: { name: string };
  names: { name: string; language: { name: string } }[];
}

/** Every creature of the build's list with its item and its species, in list order: what the oracles read. */
export function builtCreatures(): { name: string; creature: BuiltCreature; species: BuiltSpecies }[] {
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

/** Waits for the answer to a type and generation filter and compares it with the oracle; returns the oracle's size. */
export async function expectFilterAnswer(page: Page, path: string, type: string, generation: string): Promise<number> {
  await answered(page, path);
  const oracle = creaturesWhere((c, s) => c.types.some((t) => t.type.name === type) && s.generation.name === generation);
  const answer = (await shownJson(page)) as { count: number; results: { name: string }[] };
  expect(answer.count, path).toBe(oracle.length);
  expect(
    answer.results.map((r) => r.name),
    path,
  ).toEqual(oracle.slice(0, 20));
  return oracle.length;
}
