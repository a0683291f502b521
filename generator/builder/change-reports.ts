/**
 * The served change reports: the build reads the committed reports
 * (`data/changes/{from}..{to}.json`, made by `npm run data:update`), checks each against its
 * schema and its file name, and serves the chain that leads to the build's commit:
 * `GET /v2/changes/` (newest first, with summary counts) and `GET /v2/changes/{to}` (a report).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { changeReportFile, changesListFile } from '../../contract/layout.ts';
import { validatorFor } from '../../schemas/ajv.ts';
import type { Static } from '@sinclair/typebox';
import { ChangeReport, ChangeSummary } from '../../schemas/output/changes.ts';
import { BuildError } from '../build-error.ts';

const REPORT_FILE = /^([0-9a-f]{40})\.\.([0-9a-f]{40})\.json$/;

/** One entry of `GET /v2/changes/`. */
export interface ChangeListEntry {
  from: string;
  to: string;
  url: string;
  summary: Static<typeof ChangeSummary>;
}

export interface ChangeList {
  count: number;
  results: ChangeListEntry[];
}

/** Every report in `dir` (none when it does not exist), each checked; a bad one is a BuildError naming its file. */
export function readChangeReports(dir: string): ChangeReport[] {
  if (!existsSync(dir)) return [];
  const check = validatorFor(ChangeReport);
  return readdirSync(dir)
    .sort()
    .filter((name) => name.endsWith('.json'))
    .map((name) => {
      const where = join(dir, name);
      const commits = REPORT_FILE.exec(name);
      if (!commits) throw new BuildError([`${where}: a change report is named {from}..{to}.json, with full 40-hex commits`]);
      let report: unknown;
      try {
        report = JSON.parse(readFileSync(where, 'utf8'));
      } catch (e) {
        if (!(e instanceof SyntaxError)) throw e;
        throw new BuildError([`${where}: not JSON (${e.message})`], { cause: e });
      }
      const problem = check(report);
      if (problem) throw new BuildError([`${where}: ${problem}`]);
      const { from, to } = report as ChangeReport;
      if (from !== commits[1] || to !== commits[2]) throw new BuildError([`${where}: its from and to (${from}..${to}) are not its name's`]);
      return report as ChangeReport;
    });
}

/** The reports that lead to `head`, newest first: the one whose `to` is head, then the one whose `to` is its `from`, and so on. */
export function changeChain(reports: readonly ChangeReport[], head: string): ChangeReport[] {
  const byTo = new Map(reports.map((r) => [r.to, r]));
  const chain: ChangeReport[] = [];
  const seen = new Set<string>();
  for (let at = byTo.get(head); at && !seen.has(at.to); at = byTo.get(at.from)) {
    seen.add(at.to);
    chain.push(at);
  }
  return chain;
}

export const changeUrl = (baseUrl: string, to: string): string => `${baseUrl}/changes/${to}/`;

export function changeList(chain: readonly ChangeReport[], baseUrl: string): ChangeList {
  return { count: chain.length, results: chain.map((r) => ({ from: r.from, to: r.to, url: changeUrl(baseUrl, r.to), summary: r.summary })) };
}

/** The files of the served reports: the list, then each report under its `to`. */
export function changeFiles(chain: readonly ChangeReport[], baseUrl: string): Array<[path: string, body: string]> {
  return [[changesListFile, JSON.stringify(changeList(chain, baseUrl))], ...chain.map((r): [string, string] => [changeReportFile(r.to), JSON.stringify(r)])];
}
