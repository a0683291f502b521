/** The pagination rules in-process, edge cases included (the HTTP tests cover the common ones). */
import { describe, expect, it } from 'vitest';
import { paginate, parseLimit, parseOffset } from '../contract/pagination.ts';

describe('limit and offset', () => {
  it.each([
    [null, 20],
    ['', 20],
    ['0', 20],
    ['-1', 20],
    ['1', 1],
    [' 7 ', 7],
    ['+7', 7],
    ['100000', 100000],
    ['100001', 100000],
    ['9'.repeat(40), 100000],
    ['1e3', 20],
    ['0x10', 20],
    ['2.0', 20],
  ])('limit %j → %i', (raw, limit) => expect(parseLimit(raw)).toBe(limit));

  it.each([
    [null, 0],
    ['abc', 0],
    ['-20', 0],
    ['40', 40],
    ['9'.repeat(40), Number.MAX_SAFE_INTEGER],
  ])('offset %j → %i', (raw, offset) => expect(parseOffset(raw)).toBe(offset));

  it('an offset far past the end gives an empty page whose links are whole numbers', () => {
    const list = { count: 3, results: [{ url: 'a' }, { url: 'b' }, { url: 'c' }] };
    const page = paginate(list, 'http://x/v2/k/', parseOffset('9'.repeat(30)), 20);
    expect(page.results).toEqual([]);
    expect(page.next).toBeNull();
    expect(page.previous).toBe(`http://x/v2/k/?offset=${Number.MAX_SAFE_INTEGER - 20}&limit=20`);
  });
});
