/**
 * What a person does in the docs page: Debian's Chromium, headless, against the preview of the
 * data cut's build (generator/cut: the page is built from the build's data, so it names the cut's
 * items). They try `/v2/creature/1` and follow the links in the answer, use the keyboard only,
 * run the search and filter examples and a 400, type the "Coming from GraphQL" requests, run the
 * "As of a game" examples (clefairy in generation V, its matchups), and read
 * an answer on a 360 px screen; every answer is what the built documents say. Screenshots go under
 * test-output/. The page as a reader meets it (reference, contrast, sections, coverage map) is
 * test/e2e.test.ts.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { itemFile, listFile } from '../contract/layout.ts';
import { GRAPHQL_EXAMPLES } from '../generator/artifacts/graphql-page.ts';
import {
  answered,
  base,
  builtCreatures,
  distJson,
  escapeRegExp,
  expectFilterAnswer,
  openPage,
  origin,
  output,
  outputDir,
  pretty,
  screenshotTop,
  shownJson,
  status,
  tryPage,
  useChromium,
  type BuiltCreature,
  type BuiltSpecies,
} from './support/docs-page.ts';

useChromium();

describe('the docs page', () => {
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
});

describe('the docs page: filter and search', () => {
  it('runs the search example in the try box: charzard lists charizard first, and the answer links its reference', async () => {
    const { page, elsewhere, errors } = await tryPage();
    await page.locator('#filter-search a[data-try][href="/v2/search/?q=charzard"]').click();
    await answered(page, '/v2/search/?q=charzard');
    const answer = (await shownJson(page)) as {
      count: number;
      results: { name: string; kind: string; url: string; matched_name: string; language: string | null }[];
    };
    expect(answer.count).toBeGreaterThan(0);
    expect(answer.results[0]).toMatchObject({ name: 'charizard', matched_name: 'charizard', language: null });
    expect(answer.results[0]!.url).toBe(`${base}/${answer.results[0]!.kind}/6/`);
    expect(await page.getByRole('link', { name: 'Fields of this answer' }).getAttribute('href')).toBe('#shape-SearchPage');
    await page.screenshot({ path: join(outputDir, 'docs-search.png') });
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('runs the filter example, and the same filter where the cut has more than a page, as the built documents say, and a 400 for a type that is not one', async () => {
    const { page, elsewhere, errors } = await tryPage();
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
  });
});

/** The request of the upstream's example `file` (the first, when a file asks two questions). */
const graphqlPath = (file: string) => GRAPHQL_EXAMPLES.find((e) => e.file === file)!.path;

describe('the docs page: coming from GraphQL', () => {
  it('runs weakestPokemonAbleToBeatFireRedAlone.gql’s request with three moves the cut holds: all three moves, lowest base experience first, English species names, as the built documents say', async () => {
    // the example asks for strength, cut and surf, which the cut does not hold (the full build answers it, below);
    // tackle, protect and bite: five creatures of generation I, three of them tied on base experience
    const moves = ['tackle', 'protect', 'bite'];
    const example = graphqlPath('weakestPokemonAbleToBeatFireRedAlone.gql');
    const path = example.replace('move=strength&move=cut&move=surf', moves.map((m) => `move=${m}`).join('&'));
    expect(path).not.toBe(example);
    const { page, elsewhere, errors } = await tryPage();
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
  });

  it('runs gen3_species.gql’s request: the species count per generation, as the built documents say', async () => {
    const path = graphqlPath('gen3_species.gql');
    const { page, elsewhere, errors } = await tryPage();
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
  });
});

describe('the docs page: as of a game', () => {
  it('runs the clefairy example in the try box: the answer shown is the service’s, normal as of generation V where today it is fairy, and it links its reference; then the matchups', async () => {
    const path = '/v2/as-of/generation-v/creature/clefairy/';
    const { page, elsewhere, errors } = await tryPage();
    await page.locator(`#as-of a[data-try][href="${path}"]`).click();
    await answered(page, path);
    const shown = (await shownJson(page)) as { name: string; types: { type: { name: string } }[] };
    expect(shown).toEqual(await (await fetch(`${origin}${path}`)).json());
    expect(shown.name).toBe('clefairy');
    expect(shown.types.map((t) => t.type.name)).toEqual(['normal']);
    expect(shown).not.toHaveProperty('past_types');
    const today = distJson(itemFile('creature', 'clefairy')) as { types: { type: { name: string } }[] };
    expect(today.types.map((t) => t.type.name)).toEqual(['fairy']);
    expect(await page.getByRole('link', { name: 'Fields of this answer' }).getAttribute('href')).toBe('#shape-CreatureAsOf');
    await page.screenshot({ path: join(outputDir, 'docs-as-of.png') });

    const matchups = '/v2/as-of/generation-v/creature/clefairy/matchups/';
    await page.locator(`#as-of a[data-try][href="${matchups}"]`).click();
    await answered(page, matchups);
    const defending = ((await shownJson(page)) as { defending: { type: { name: string }; multiplier: number }[] }).defending;
    expect(defending).toEqual(((await (await fetch(`${origin}${matchups}`)).json()) as { defending: unknown[] }).defending);
    expect(Object.fromEntries(defending.map((d) => [d.type.name, d.multiplier]))).toMatchObject({ fighting: 2, ghost: 0 });
    expect(await page.getByRole('link', { name: 'Fields of this answer' }).getAttribute('href')).toBe('#shape-Matchups');
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
