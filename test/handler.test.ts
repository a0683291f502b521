/** The request module in-process, with readers that misbehave the way a CDN fetch can. */
import { describe, expect, it, vi } from 'vitest';
import { createHandler, type FileReader } from '../edge/handler.ts';
import { routesFile } from '../edge/layout.ts';

const encoder = new TextEncoder();
const routes = { kinds: ['gender'], subresources: {}, idOnly: [], site: {} };

describe('handler', () => {
  it('does not keep a failed read of the routing table: the next request reads it again', async () => {
    let failing = true;
    const files: FileReader = {
      read: async (path) => {
        if (path === routesFile) {
          if (failing) throw new Error('fetch failed');
          return encoder.encode(JSON.stringify(routes));
        }
        return path === 'v2/gender/1.json' ? encoder.encode('{"id":1}') : null;
      },
    };
    const handle = createHandler(files, { baseUrl: 'http://x/v2' });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect((await handle(new Request('http://x/v2/gender/1'))).status).toBe(500);
      expect(logged.mock.calls.map((call) => call.join(' '))).toEqual(['GET /v2/gender/1: 500: fetch failed']);
    } finally {
      logged.mockRestore();
    }
    failing = false;
    const answer = await handle(new Request('http://x/v2/gender/1'));
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('{"id":1}');
  });
});
