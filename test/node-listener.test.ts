/**
 * The preview's node:http shell (generator/preview/node-listener.ts) around invented answering
 * functions: what reaches the request logic, and what goes on the wire, raw.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestLike, Respond } from '../edge/http.ts';
import { nodeListener } from '../generator/preview/index.ts';

let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? (server.closeAllConnections(), server.close(() => done())) : done())));

async function serve(respond: Respond): Promise<string> {
  server = createServer(nodeListener(respond, 'http://127.0.0.1'));
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function send(url: string, method = 'GET', headers: Record<string, string | string[]> = {}): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the preview shell', () => {
  it('hands over the method, an absolute URL and the headers, and writes the reply as it is', async () => {
    let seen: { method: string; url: string; ifNoneMatch: string | null; accept: string | null } | undefined;
    const origin = await serve(async (request: RequestLike) => {
      seen = { method: request.method, url: request.url, ifNoneMatch: request.headers.get('If-None-Match'), accept: request.headers.get('accept-encoding') };
      return { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', etag: '"e"', 'content-length': '7' }, body: Buffer.from('"hello"') };
    });
    const got = await send(`${origin}/v2/thing/?q=a%20b`, 'GET', { 'If-None-Match': '"x"', 'Accept-Encoding': 'br' });
    expect(seen).toEqual({ method: 'GET', url: 'http://127.0.0.1/v2/thing/?q=a%20b', ifNoneMatch: '"x"', accept: 'br' });
    expect(got.status).toBe(200);
    expect(got.body).toBe('"hello"');
    expect(got.headers['content-length']).toBe('7');
    expect(got.headers['etag']).toBe('"e"');
    expect(got.headers['accept-ranges']).toBeUndefined();
    expect(got.headers['transfer-encoding']).toBeUndefined();
  });

  it('a reply with no body (HEAD, 304) sends its headers only', async () => {
    const origin = await serve(async () => ({ status: 200, headers: { 'content-length': '1234' }, body: null }));
    const got = await send(origin + '/v2/', 'HEAD');
    expect(got.status).toBe(200);
    expect(got.headers['content-length']).toBe('1234');
    expect(got.body).toBe('');
  });

  it('when answering fails, a chunked 404 "Not Found" (no body for HEAD), as the shell always sent it', async () => {
    const origin = await serve(() => Promise.reject(new Error('invented failure')));
    const get = await send(origin + '/v2/thing/1');
    expect(get.status).toBe(404);
    expect(get.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(get.headers['transfer-encoding']).toBe('chunked');
    expect(get.body).toBe('"Not Found"');
    const headReply = await send(origin + '/v2/thing/1', 'HEAD');
    expect(headReply.status).toBe(404);
    expect(headReply.body).toBe('');
  });
});
