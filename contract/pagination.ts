/** The pagination rules of the service, in one place (the build's precomputed pages use them too). */
import { DEFAULT_LIMIT, MAX_LIMIT } from './layout.ts';

export interface ListEntry {
  name?: string;
  url: string;
}

export interface FullList {
  count: number;
  results: ListEntry[];
}

export interface Page {
  count: number;
  next: string | null;
  previous: string | null;
  results: ListEntry[];
}

/**
 * Reads a query parameter as a whole decimal number, or null when it is not one. Any number of
 * digits is a number: one too large for exact arithmetic is held at the largest safe integer,
 * which is past every collection's end and above the limit's maximum either way.
 */
function integerParam(value: string | null): number | null {
  if (value === null || !/^[+-]?\d+$/.test(value.trim())) return null;
  const n = Number(value.trim());
  return Math.max(-Number.MAX_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, n));
}

/** `limit`: 1..100000; missing, invalid or ≤ 0 → 20; above the maximum → 100000. */
export function parseLimit(value: string | null): number {
  const n = integerParam(value);
  if (n === null || n <= 0) return DEFAULT_LIMIT;
  return Math.min(n, MAX_LIMIT);
}

/** `offset`: ≥ 0; missing, invalid or negative → 0. */
export function parseOffset(value: string | null): number {
  const n = integerParam(value);
  return n === null || n < 0 ? 0 : n;
}

/**
 * The links to the next and previous page of `count` results at `url` (`{base}/{kind}/`);
 * `suffix` makes the rest of the query they carry after offset and limit (`&q=…`), asked only
 * when the page has a link: a whole list in one page makes none, so no parameter is written back
 * for nothing on a new process's first answer.
 */
export function pageLinks(
  count: number,
  url: string,
  offset: number,
  limit: number,
  suffix: () => string = noSuffix,
): { next: string | null; previous: string | null } {
  const hasNext = offset + limit < count,
    hasPrevious = offset > 0;
  const rest = hasNext || hasPrevious ? suffix() : '';
  const next = hasNext ? `${url}?offset=${offset + limit}&limit=${limit}${rest}` : null;
  const previous = hasPrevious ? `${url}?offset=${Math.max(0, offset - limit)}&limit=${limit}${rest}` : null;
  return { next, previous };
}

const noSuffix = (): string => '';

/** One page of a collection; `collectionUrl` is `{base}/{kind}/`. */
export function paginate(list: FullList, collectionUrl: string, offset: number, limit: number): Page {
  const results = list.results.slice(offset, offset + limit);
  return { count: list.count, ...pageLinks(list.count, collectionUrl, offset, limit), results };
}
