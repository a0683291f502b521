/**
 * The shared table (test/support/http-cases.ts) against the running preview, over real HTTP:
 * every row, and every row again with headers no answer may depend on.
 * Over the data cut's build (a mechanism: every kind is in it, the whole data set is not needed).
 */
import { describe, expect, inject, it } from 'vitest';
import { checkOutcome, gotFrom, httpCases, loadCaseContext, runCases, withSpoofedHeaders, type Got, type Sent } from './support/http-cases.ts';

const origin = inject('cutPreviewUrl');
const ctx = loadCaseContext(inject('cutDistDir'), inject('baseUrl'));
const table = httpCases(ctx);
const cases = [...table, ...withSpoofedHeaders(table)];

const send = (requests: Sent[]): Promise<Got[]> =>
  Promise.all(requests.map(async ({ method, path, headers }) => gotFrom(await fetch(`${origin}${path}`, { method, headers }))));

describe('the preview answers every row of the table', async () => {
  const outcomes = await runCases(cases, send);
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(checkOutcome(ctx, c, outcomes.get(c.name)!), `${c.method ?? 'GET'} ${c.path}`).toEqual([]);
  });
});
