/** The request module in-process, with readers that misbehave the way a CDN fetch can, and what a fault logs. */
import { describe, expect, it, vi } from 'vitest';
import { stackWithCauses } from '../contract/error-text.ts';
import { createHandler, type FileReader } from '../edge/handler.ts';
import { routesFile } from '../contract/layout.ts';

const encoder = new TextEncoder();
const routes = { kinds: ['gender'], subresources: {}, idOnly: [], site: {} };

describe('handler', () => {
  it('does not keep a failed read of the routing table: the next request reads it again', async () => {
    let failing = true;
    const files: FileReader = {
      read: async (path) => {
        if (path === routesFile) {
          if (failing) throw new Error('fetch failed', { cause: new Error('connect ECONNREFUSED 10.0.0.1:443') });
          return encoder.encode(JSON.stringify(routes));
        }
        return path === 'v2/gender/1.json' ? encoder.encode('{"id":1}') : null;
      },
    };
    const handle = createHandler(files, { baseUrl: 'http://x/v2' });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect((await handle(new Request('http://x/v2/gender/1'))).status).toBe(500);
      const entries = logged.mock.calls.map((call) => call.join(' '));
      expect(entries).toHaveLength(1);
      const [line, header, frame, ...rest] = entries[0]!.split('\n');
      expect([line, header, frame]).toEqual(['GET /v2/gender/1: 500: fetch failed', 'Error: fetch failed', expect.stringMatching(/^ {4}at /)]);
      // the cause below it, with its own stack
      const cause = rest.join('\n').split('caused by: ')[1]!;
      expect(cause.split('\n').slice(0, 2)).toEqual(['Error: connect ECONNREFUSED 10.0.0.1:443', expect.stringMatching(/^ {4}at /)]);
    } finally {
      logged.mockRestore();
    }
    failing = false;
    const answer = await handle(new Request('http://x/v2/gender/1'));
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('{"id":1}');
  });
});

describe('the stack a fault logs', () => {
  const frames = (text: string) => text.split('\n').filter((l) => /^\s+at /.test(l)).length;

  it('follows the causes down, each with its stack, and a thrown value that is no Error as it reads', () => {
    const text = stackWithCauses(new TypeError('outer', { cause: new RangeError('middle', { cause: 'the bottom, a string' }) }));
    const [outer, middle, bottom] = text.split('\ncaused by: ');
    expect(outer!.split('\n')[0]).toBe('TypeError: outer');
    expect(middle!.split('\n')[0]).toBe('RangeError: middle');
    expect(bottom).toBe('the bottom, a string');
    expect(frames(outer!)).toBeGreaterThan(0);
    expect(frames(middle!)).toBeGreaterThan(0);
  });

  it('stops at a cause that leads back, and shows the errors an AggregateError gathers', () => {
    const loop = new Error('loop');
    loop.cause = new Error('back', { cause: loop });
    const looped = stackWithCauses(loop);
    expect(looped.match(/caused by: /g)).toHaveLength(2);
    expect(looped).toMatch(/caused by: \(the chain goes on; not shown\)$/);
    const many = stackWithCauses(
      new AggregateError(
        Array.from({ length: 7 }, (_, i) => new Error(`bad ${i + 1}`, { cause: new Error(`why ${i + 1}`) })),
        '7 exceptions',
      ),
    );
    expect(many.split('\n')[0]).toBe('AggregateError: 7 exceptions');
    expect(many).toContain('  [1 of 7] Error: bad 1');
    expect(many).toContain('  caused by: Error: why 1');
    expect(many).toContain('  [5 of 7] Error: bad 5');
    expect(many).not.toContain('bad 6');
    expect(many).toContain('  … and 2 more');
  });
});
