/**
 * The docs page's lines on the latest data version: its report in a few lines (tables, items by
 * kind, the downloads it moved), linking the full report and the list of every version.
 */
import { changeReportFile, changesListFile } from '../../contract/layout.ts';
import type { ChangeReport } from '../../schemas/output/changes.ts';
import type { ChangeList } from '../../schemas/output/change-list.ts';
import { escapeHtml, tryLink } from './reference.ts';
import type { ArtifactContext } from './artifact.ts';

/** How many kinds the page names before "and N more". */
const SHOWN_KINDS = 6;

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function kindLine(kind: string, k: ChangeReport['kinds'][string]): string {
  const parts = [
    k.added.length && `${k.added.length} added`,
    k.removed.length && `${k.removed.length} removed`,
    k.changed.length && `${k.changed.length} changed`,
  ].filter(Boolean);
  return `<li><code>${escapeHtml(kind)}</code>: ${parts.join(', ')}</li>`;
}

/** The downloads the version moved to new names, when its report says; the old names are no longer served. */
function movedLine(report: ChangeReport): string {
  const moved = report.downloads ?? [];
  if (!moved.length) return '';
  const code = (path: string | null) => (path === null ? 'none' : `<code>${escapeHtml(path)}</code>`);
  return `<p>Downloads named after the data version moved (the old names are no longer served): ${moved.map((d) => `${code(d.from)} → ${code(d.to)}`).join('; ')}.</p>`;
}

/** The latest report's lines, or a sentence saying there is none; from the build's own files. */
export function changesSection(readFile: ArtifactContext['read']): string {
  const read = <T>(path: string): T | null => {
    const text = readFile(path);
    return text === null ? null : (JSON.parse(text) as T);
  };
  const list = read<ChangeList>(changesListFile);
  const latest = list?.results[0];
  const report = latest ? read<ChangeReport>(changeReportFile(latest.to)) : null;
  const all = tryLink('/v2/changes/');
  let body: string;
  if (!latest || !report) body = `<p>No change report was made for this data version yet. ${all} lists every version that has one.</p>`;
  else {
    const kinds = Object.entries(report.kinds);
    const more = kinds.length > SHOWN_KINDS ? `<li>and ${plural(kinds.length - SHOWN_KINDS, 'more kind')}</li>` : '';
    const { added, removed, changed } = report.summary;
    body =
      `<p>The latest data version, upstream <code>${escapeHtml(report.from.slice(0, 7))}</code> → <code>${escapeHtml(report.to.slice(0, 7))}</code>, ` +
      `changed ${plural(report.tables.length, 'table')}; items: ${added} added, ${removed} removed, ${changed} changed.</p>` +
      `<ul class="changes">${kinds
        .slice(0, SHOWN_KINDS)
        .map(([kind, k]) => kindLine(kind, k))
        .join('')}${more}</ul>` +
      movedLine(report) +
      `<p>Its full report, with the field paths of each changed item: ${tryLink(`/v2/changes/${report.to}`, `/v2/changes/${report.to.slice(0, 7)}…`)}. Every version: ${all} (${plural(list.count, 'report')}).</p>`;
  }
  return `<section id="changes" aria-labelledby="changes-title"><h2 id="changes-title">What changed</h2><div class="card">${body}</div></section>`;
}
