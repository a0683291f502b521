/**
 * The preview's node:http shell (generator/preview/node-listener.ts) around invented answering
 * functions: what reaches the request logic, and what goes on the wire, raw.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RequestLike, Respond } from '../edge/http.ts';
import { nodeListener } from '../generator/preview/index.ts';
import { encodeRawTarget, refusedRequestListener } from '../generator/preview/node-listener.ts';

let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? (server.closeAllConnections(), server.close(() => done())) : done())));

async function serve(respond: Respond): Promise<string> {
  server = createServer(nodeListener(respond, 'http://127.0.0.1'));
  server.on('clientError', refusedRequestListener(respond, 'http://127.0.0.1'));
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function send(
  url: string,
  method = 'GET',
  headers: Record<string, string | string[]> = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
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

  it('when answering fails, a 500 {"error":"internal",…} stored nowhere (no body for HEAD), logged: a line naming the path and the error, then its stack', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const origin = await serve(() => Promise.reject(new Error('invented failure')));
      const get = await send(origin + '/v2/thing/1');
      expect(get.status).toBe(500);
      expect(get.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(get.headers['cache-control']).toBe('no-store');
      expect(JSON.parse(get.body)).toEqual({
        error: 'internal',
        detail: "The server failed to answer this request. The fault is ours, not the request's, and it was logged.",
      });
      const headReply = await send(origin + '/v2/thing/1', 'HEAD');
      expect(headReply.status).toBe(500);
      expect(headReply.body).toBe('');
      const entries = logged.mock.calls.map((call) => call.join(' ').split('\n'));
      expect(entries.map(([line]) => line)).toEqual(['GET /v2/thing/1: 500: invented failure', 'HEAD /v2/thing/1: 500: invented failure']);
      for (const [, header, frame] of entries) expect([header, frame]).toEqual(['Error: invented failure', expect.stringMatching(/^ {4}at /)]);
    } finally {
      logged.mockRestore();
    }
  });
});

/**
 * Bytes as they are on a raw connection, and everything the server sends back until it closes.
 * The client does not half-close, as curl does not: Node ends a refused connection on its FIN.
 */
function sendRaw(origin: string, bytes: Buffer): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
  });
}

describe("requests Node's parser refuses", () => {
  const echo: Respond = async (request) => {
    const body = Buffer.from(JSON.stringify({ method: request.method, url: request.url, accept: request.headers.get('accept') }));
    return { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) }, body };
  };

  it('reads a raw UTF-8 target as its percent-encoded form, as nginx and the CDN do', async () => {
    const origin = await serve(echo);
    const got = await sendRaw(origin, Buffer.from('GET /v2/creature/?q=ピカチュウ&limit=1 HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\n\r\n', 'utf8'));
    expect(got.status).toBe(200);
    expect(JSON.parse(got.body)).toEqual({
      method: 'GET',
      url: `http://127.0.0.1/v2/creature/?q=${encodeURIComponent('ピカチュウ')}&limit=1`,
      accept: 'application/json',
    });
    expect(got.headers['connection']).toBe('close');
  });

  it('answers what it cannot read safely with a JSON 400, and a head past the limit with a JSON 431, with the usual headers', async () => {
    const origin = await serve(echo);
    const badRequest = { error: 'bad_request', detail: 'The request could not be read as HTTP.' };
    const cases: [Buffer, number, object][] = [
      [Buffer.concat([Buffer.from('GET /v2/?q=a\x01b HTTP/1.1\r\nHost: x\r\n\r\n')]), 400, badRequest],
      [Buffer.from('GET /v2/?q=ü HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n', 'utf8'), 400, badRequest],
      [Buffer.from('NOT HTTP AT ALL\r\n\r\n'), 400, badRequest],
      [
        Buffer.from(`GET /v2/ HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
        431,
        { error: 'header_too_large', detail: "The request's headers are larger than the server reads; send fewer or shorter ones." },
      ],
    ];
    for (const [bytes, status, body] of cases) {
      const got = await sendRaw(origin, bytes);
      expect(got.status, bytes.subarray(0, 30).toString()).toBe(status);
      expect(JSON.parse(got.body)).toEqual(body);
      expect(got.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(got.headers['access-control-allow-origin']).toBe('*');
      expect(got.headers['cache-control']).toBe('public, max-age=300');
      expect(got.headers['etag']).toMatch(/^"[0-9a-f]{24}"$/);
      expect(Number(got.headers['content-length'])).toBe(Buffer.byteLength(got.body));
    }
  });

  it('percent-encodes bytes above 0x7F only, and refuses control bytes and spaces', () => {
    expect(encodeRawTarget(Buffer.from('/v2/?q=é%41', 'utf8'))).toBe('/v2/?q=%C3%A9%41');
    expect(encodeRawTarget(Buffer.from('/v2/?q=a b'))).toBeNull();
    expect(encodeRawTarget(Buffer.from('/v2/?q=a\x7f'))).toBeNull();
  });
});
