/**
 * The docs page as a reader meets it: Debian's Chromium, headless, against the preview of the data
 * cut's build (generator/cut: the page is built from the build's data, so it names the cut's
 * items). It is served at `/` with its assets and lists every resource; each resource has its
 * reference, which its fields, its example and the try box's answers link to; text has enough
 * contrast in both colour schemes; the "Filter and search", "Entries", "As of a game" and "Coming from
 * GraphQL" sections link their requests into the try box (an entry's runs there); the coverage map says what /v2/meta/coverage/ says. Screenshots
 * go under test-output/. The page's few examples that need items the cut lacks are checked on the
 * full build, by HTTP. What a person does in the page (the try box, links, keyboard, search,
 * filters, typed queries, a narrow screen) is test/e2e-try.test.ts.
 */
import { describe, expect, inject, it } from 'vitest';
import { coverageFile, itemFile, routesFile, type Routes } from '../contract/layout.ts';
import type { CoverageMap } from '../schemas/output/coverage.ts';
import { GRAPHQL_EXAMPLES } from '../generator/artifacts/graphql-page.ts';
import { answered, distJson, escapeRegExp, loadedPage, openPage, origin, screenshotOf, screenshotTop, shownJson, useChromium } from './support/docs-page.ts';
import type { Locator, Page } from 'playwright-core';

const fullOrigin = inject('previewUrl');

useChromium();

describe('the docs page', () => {
  it('is served at / as HTML with its assets, and lists every resource', async () => {
    const response = await fetch(`${origin}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    for (const [asset, type] of [
      ['/docs.js', 'text/javascript; charset=utf-8'],
      ['/docs.css', 'text/css; charset=utf-8'],
      ['/sql.js', 'text/javascript; charset=utf-8'],
      ['/sql-worker.js', 'text/javascript; charset=utf-8'],
      ['/sqlite-range.js', 'text/javascript; charset=utf-8'],
      ['/sqlite3.mjs', 'text/javascript; charset=utf-8'],
      ['/sqlite3.wasm', 'application/wasm'],
    ] as const) {
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
    // the try box's status line, and the SQL box's
    expect(await page.getByRole('status').count()).toBe(2);
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

  it('has a reference per resource: the creature’s fields say decimetres, and a shared shape is one link away', async () => {
    const { page, elsewhere, errors } = await openPage();
    await page.goto(`${origin}/`);
    // from the resource list: the creature row's reference link
    await page
      .locator('#resources tr', { has: page.locator('a[href="/v2/creature/"]') })
      .getByRole('link', { name: 'fields' })
      .click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#ref-creature');
    const creature = page.locator('#ref-creature');
    expect(await creature.isVisible()).toBe(true);
    // each kind has its one fields table (read in one go: a locator per kind is a round trip each)
    const routes = distJson(routesFile) as Routes;
    const tables = await page.evaluate(
      (kinds) => kinds.map((k) => [k, document.querySelectorAll(`article#ref-${k} table.fields`).length] as const),
      routes.kinds,
    );
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
    const dangling = await page
      .locator('#reference a[href^="#"], #resources a[href^="#"]')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')!.slice(1)).filter((id) => !document.getElementById(id)));
    expect(dangling).toEqual([]);
    // the creature's example: an excerpt of the real response, and the whole one in the try box
    await page.goto(`${origin}/#ref-creature`);
    // opened as such, not by a click on its summary: under load that click could miss it (the page scrolling) and leave it shut, and the link in it then never showed
    await creature.locator('details.example').evaluate((el) => {
      (el as HTMLDetailsElement).open = true;
    });
    await expect.poll(() => creature.locator('details.example pre').isVisible()).toBe(true);
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
    for (const path of ['/v2/creature/bulbasaur', '/v2/creature-species/ivysaur', '/v2/evolution-chain/1'])
      expect(await good.locator(`a[data-try][href="${path}"]`).count(), path).toBe(1);
    await screenshotOf(creature, 'docs-reference-creature.png');
    expect(elsewhere).toEqual([]);
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

/** A section of the page: one heading of `heading`, its entry in the table of contents, and one try link per example (`what` names it in a failure). */
async function sectionWithTries(page: Page, id: string, heading: string, examples: ReadonlyArray<{ path: string; what: string }>): Promise<Locator> {
  const section = page.locator(`#${id}`);
  expect(await section.getByRole('heading', { name: heading, exact: true }).count()).toBe(1);
  expect(await page.locator(`nav.toc a[href="#${id}"]`).count()).toBe(1);
  for (const { path, what } of examples) expect(await section.locator(`a[data-try][href="${path}"]`).count(), what).toBe(1);
  return section;
}

describe('the docs page: filter and search', () => {
  it('has a "Filter and search" section whose examples open in the try box, and a row per collection that declares queries', async () => {
    const { page, elsewhere, errors } = await loadedPage();
    const examples = [
      '/v2/creature/?type=fire&generation=generation-iii',
      '/v2/creature/?speed=100..&fields=types,sprites.front_default',
      '/v2/creature-species/?q=ピカチュウ',
      '/v2/search/?q=charzard',
      '/v2/creature/?type=firee',
    ];
    const section = await sectionWithTries(
      page,
      'filter-search',
      'Filter and search',
      examples.map((path) => ({ path, what: path })),
    );
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
});

describe('the docs page: as of a game', () => {
  it('has an "As of a game" section whose examples open in the try box, a row per kind of what changes, and the answers’ reference', async () => {
    const { page, elsewhere, errors } = await loadedPage();
    const examples = [
      '/v2/as-of/generation-v/creature/clefairy/',
      '/v2/as-of/red-blue/creature/bulbasaur/',
      '/v2/as-of/generation-v/type/steel/',
      '/v2/as-of/generation-v/creature/clefairy/matchups/',
    ];
    const section = await sectionWithTries(
      page,
      'as-of',
      'As of a game',
      examples.map((path) => ({ path, what: path })),
    );
    const text = (await section.textContent()) ?? '';
    for (const phrase of ['red-blue', 'firered', 'generation-iv', 'past_*', 'today’s', 'levitate', 'not_found']) expect(text, phrase).toContain(phrase);
    // what changes, by kind, as the as-of schemas say; each row links its answer's reference, which is on the page
    const rows = section.locator('#as-of-fields tbody tr');
    expect(await rows.locator('th').allTextContents()).toEqual(['creature', 'entry', 'move', 'type', 'ability']);
    expect(await rows.nth(0).locator('td').nth(0).textContent()).toBe('abilities, moves, stats, types');
    expect(await rows.nth(0).locator('td').nth(1).textContent()).toBe('past_abilities, past_stats, past_types');
    expect(await rows.nth(3).locator('td').nth(0).textContent()).toBe('damage_relations, creature, moves');
    const dangling = await page
      .locator('#as-of a[href^="#"]')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')!.slice(1)).filter((id) => !document.getElementById(id)));
    expect(dangling).toEqual([]);
    for (const shape of ['CreatureAsOf', 'MoveAsOf', 'TypeAsOf', 'AbilityAsOf', 'Matchups', 'AsOfNotFound']) {
      expect(await page.locator(`#as-of-documents ~ article#shape-${shape} table.fields`).count(), shape).toBe(1);
    }
    await screenshotOf(section, 'docs-as-of-section.png');
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe('the docs page: entries', () => {
  it('has an "Entries" section whose examples open in the try box: giratina by its species’ name, a dex text as of red, what evolves by trade', async () => {
    const { page, elsewhere, errors } = await loadedPage();
    const examples = ['/v2/entry/giratina', '/v2/as-of/red/entry/bulbasaur', '/v2/entry/?evolution_trigger=trade'];
    const section = await sectionWithTries(
      page,
      'entries',
      'Entries',
      examples.map((path) => ({ path, what: path })),
    );
    const text = (await section.textContent()) ?? '';
    for (const phrase of ['giratina-altered', 'unown-b', 'evolution_details', 'stage', '/v2/search/']) expect(text, phrase).toContain(phrase);
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('runs one in the try box: the dex text as of red, of red alone', async () => {
    const { page, elsewhere, errors } = await openPage();
    await page.goto(`${origin}/`);
    await page.locator('#entries a[data-try][href="/v2/as-of/red/entry/bulbasaur"]').click();
    await answered(page, '/v2/as-of/red/entry/bulbasaur');
    const shown = (await shownJson(page)) as { name: string; flavor_text_entries: Array<{ version: { name: string } }> };
    expect(shown.name).toBe('bulbasaur');
    expect(shown.flavor_text_entries.length).toBeGreaterThan(0);
    expect(new Set(shown.flavor_text_entries.map((e) => e.version.name))).toEqual(new Set(['red']));
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('the docs page: coming from GraphQL', () => {
  it('has a "Coming from GraphQL" section with each example’s request as a try link', async () => {
    const { page, elsewhere, errors } = await loadedPage();
    const section = await sectionWithTries(
      page,
      'from-graphql',
      'Coming from GraphQL',
      GRAPHQL_EXAMPLES.map(({ file, path }) => ({ path, what: file })),
    );
    expect(await section.locator('#graphql-examples tbody tr').count()).toBe(GRAPHQL_EXAMPLES.length);
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
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
    for (const path of ['/v2/creature/deoxys', '/v2/creature-species/deoxys'])
      expect(good, path).toMatch(new RegExp(`<a [^>]*data-try[^>]* href="${escapeRegExp(path)}"`));
    expect((await fetch(`${fullOrigin}/v2/creature/deoxys`)).status).toBe(404);
    const species = (await (await fetch(`${fullOrigin}/v2/creature-species/deoxys`)).json()) as {
      varieties: { is_default: boolean; creature: { name: string } }[];
    };
    expect(species.varieties.find((v) => v.is_default)?.creature.name).toBe('deoxys-normal');
  });

  it('answers the "Entries" examples: giratina by its species’ name, what evolves by trade', async () => {
    const giratina = (await (await fetch(`${fullOrigin}/v2/entry/giratina`)).json()) as { name: string };
    expect(giratina.name).toBe('giratina-altered');
    const trade = (await (await fetch(`${fullOrigin}/v2/entry/?evolution_trigger=trade`)).json()) as { count: number; results: Array<{ name: string }> };
    expect(trade.count).toBeGreaterThan(10);
    expect(trade.results.map((r) => r.name)).toContain('alakazam');
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

/**
 * Runs in the page: every visible element with text of its own whose colour is below 4.5:1
 * against the background it is drawn on (ancestors' backgrounds composed, alpha included).
 */
function lowContrast(): string[] {
  const parse = (c: string): [number, number, number, number] => {
    const m = c.match(/rgba?\(([^)]+)\)/);
    if (!m) return [0, 0, 0, 0];
    const [r = 0, g = 0, b = 0, a = 1] = m[1]!
      .split(/[ ,/]+/)
      .filter(Boolean)
      .map(Number);
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
      failures.push(`${key} = ${ratio.toFixed(2)}:1 (“${el.textContent.trim().slice(0, 40)}”)`);
    }
  }
  return failures;
}
