/**
 * The docs page's coverage map: one heat map per covered kind, fields by generations, each
 * cell's colour its share of items lacking the field. It is one real table: the number of each
 * cell is its hover title and, for screen readers, its visually hidden text.
 */
import { coverageFile } from '../../contract/layout.ts';
import type { CoverageMap, KindCoverage } from '../../schemas/output/coverage.ts';
import { escapeHtml } from './reference.ts';

/** A rule's text with its `code` spans as code (the rules are written for the JSON too). */
const withCode = (text: string) => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
/** Shares fall in five bands, each a colour of the page's scale (docs.css `.heat-N`). */
const band = (share: number) => (share === 0 ? 0 : Math.min(4, 1 + Math.floor(share * 4)));
const generationLabel = (generation: string | null) => (generation === null ? 'none' : generation.replace(/^generation-/, '').toUpperCase());

function cell(k: KindCoverage, generation: string | null, count: number, field: string, gaps: number, share: number): string {
  const title = `${k.kind} · ${generation ?? 'no generation'} · ${field}: ${gaps} of ${count} lacking (${percent(share)})`;
  return (
    `<td class="heat-${band(share)}" title="${escapeHtml(title)}" data-kind="${escapeHtml(k.kind)}" data-generation="${escapeHtml(generation ?? '')}" ` +
    `data-field="${escapeHtml(field)}" data-share="${share}"><span class="visually-hidden">${percent(share)}</span></td>`
  );
}

function kindTable(k: KindCoverage): string {
  const head = k.generations
    .map((g) => `<th scope="col" title="${escapeHtml(g.generation ?? 'no generation')}: ${g.count} items">${escapeHtml(generationLabel(g.generation))}</th>`)
    .join('');
  const rows = k.fields.map((field) => {
    const cells = k.generations.map((g) => {
      const c = g.fields[field]!;
      return cell(k, g.generation, g.count, field, c.gaps, c.share);
    });
    return `<tr><th scope="row"><code>${escapeHtml(field)}</code></th>${cells.join('')}</tr>`;
  });
  return (
    `<div class="card table-scroll"><table class="heat" id="coverage-${escapeHtml(k.kind)}">` +
    `<caption><code>${escapeHtml(k.kind)}</code>: share of items lacking each field, by generation (${withCode(k.generation_rule)})</caption>` +
    `<thead><tr><th scope="col">Field</th>${head}</tr></thead><tbody>${rows.join('')}</tbody></table></div>`
  );
}

/** The as-of disagreements as a table: each case's generation, item, field and the names that did not exist yet. */
function asOfTable(cases: CoverageMap['as_of']): string {
  if (!cases.length) return '<p id="coverage-as-of">As of every generation, no as-of value names a type or ability that did not exist yet.</p>';
  const rows = cases.map(
    (c) =>
      `<tr><td>${escapeHtml(generationLabel(c.as_of))}</td><td><a data-try href="/v2/as-of/${escapeHtml(c.as_of)}/${escapeHtml(c.kind)}/${escapeHtml(c.name)}/"><code>${escapeHtml(c.kind)}/${escapeHtml(c.name)}</code></a></td>` +
      `<td><code>${escapeHtml(c.field)}</code></td><td>${c.names.map((n) => `<code>${escapeHtml(n)}</code>`).join(', ')}</td></tr>`,
  );
  return (
    `<p>Where the data disagrees with itself as of a game: the upstream’s own <code>past_*</code> fields leave these as-of values naming a type or ability that did not exist yet then. ` +
    `The answers keep them as the data gives them; <code>as_of</code> in the coverage map lists the same ${cases.length} cases.</p>` +
    `<div class="card table-scroll"><table id="coverage-as-of"><caption>As-of values naming what did not exist yet, by generation</caption>` +
    `<thead><tr><th scope="col">As of</th><th scope="col">Item</th><th scope="col">Field</th><th scope="col">Names</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`
  );
}

/** The section and its nav link; none when the build covered no kind. */
export function coverageSection(map: CoverageMap | null): { nav: string; section: string } {
  if (!map || !map.kinds.length) return { nav: '', section: '' };
  const path = `/${coverageFile.replace(/\/coverage\.json$/, '/coverage/')}`;
  const legend = [0, 1, 2, 3, 4].map((b) => `<span class="heat-${b}">${['none', 'up to 25%', 'up to 50%', 'up to 75%', 'over 75%'][b]}</span>`).join('');
  return {
    nav: '<li><a href="#coverage">Coverage</a></li>',
    section:
      `<section id="coverage" aria-labelledby="coverage-title"><h2 id="coverage-title">Coverage</h2>` +
      `<p>What the data lacks: for each kind and generation, the share of items whose field is null, empty (<code>[]</code>, <code>""</code>, <code>{}</code>) or missing, ` +
      `and whose names and flavor texts have no entry in ${map.languages.map((l) => `<code>${escapeHtml(l)}</code>`).join(', ')}. ` +
      `Hover a cell for its number; <a data-try href="${escapeHtml(path)}">${escapeHtml(path)}</a> has them all.</p>` +
      `<p class="heat-legend" aria-hidden="true">${legend}</p>` +
      map.kinds.map(kindTable).join('\n') +
      asOfTable(map.as_of) +
      `</section>`,
  };
}
