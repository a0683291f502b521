/**
 * The preview's HTTP shell: a plain node:http server whose every request goes to the request
 * logic's composition (edge/http.ts around edge/handler.ts, with compression) for one build.
 * It only translates: Node's request into a RequestLike, a Reply into Node's response.
 */
import { createServer, STATUS_CODES, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { requestRefused } from '../../edge/answers.ts';
import { faultReply } from '../../edge/handler.ts';
import { contentHash, replyOf, type Reply, type RequestLike, type Respond } from '../../edge/http.ts';
import { createServing, type PreviewCacheSizes } from './served-build.ts';

/** The request's URL; one that cannot be parsed is passed as it is, for the request logic's 404. */
function absoluteUrl(path: string, origin: string): string {
  try {
    return new URL(path, origin).href;
  } catch (error) {
    if (error instanceof TypeError) return path;
    throw error;
  }
}

/** Node's headers behind the web Headers `get` (Node joins a repeated header with ", " already). */
function headerReader(headers: IncomingHttpHeaders): RequestLike['headers'] {
  return {
    get(name) {
      const value = headers[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

/**
 * A reply with a Content-Length goes out with its body in one end(); one without (the serving's
 * last-resort 404) as a write and an end, so it stays chunked, as the preview has always sent it.
 */
function writeReply(res: ServerResponse, reply: Reply): void {
  res.statusCode = reply.status;
  for (const name in reply.headers) res.setHeader(name, reply.headers[name]!);
  if (reply.body === null) res.end();
  else if ('content-length' in reply.headers) res.end(reply.body);
  else {
    res.write(reply.body);
    res.end();
  }
}

/**
 * The answer when answering itself failed (the request logic answers its own faults; this is
 * one around it, such as compression or the build's identity): the request logic's 500, stored
 * nowhere and logged in one line, with no body for HEAD.
 */
async function failureReply(request: RequestLike, error: unknown): Promise<Reply> {
  const reply = await faultReply(request, error);
  return request.method === 'HEAD' ? { ...reply, body: null } : reply;
}

/** A Node request listener around an answering function. */
export function nodeListener(respond: Respond, origin: string) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const method = req.method ?? 'GET';
    const request: RequestLike = { method, url: absoluteUrl(req.url ?? '/', origin), headers: headerReader(req.headers) };
    respond(request)
      .catch((error: unknown) => failureReply(request, error))
      .then(
        (reply) => writeReply(res, reply),
        () => res.destroy(),
      );
  };
}

/** Where a request Node's parser refused ends: the end of its head. */
const HEAD_END = Buffer.from('\r\n\r\n');
const REQUEST_LINE = /^([A-Z]{1,20}) (\S+) HTTP\/1\.[01]$/;
/** A header line with nothing Node would refuse but what we re-read: a token, a colon, visible ASCII. */
const HEADER_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*([\x20-\x7e\t]*?)[ \t]*$/;

/**
 * A target with raw bytes above 0x7F (curl sends `?q=ピカチュウ` unencoded) as its percent-encoded
 * form, as nginx and the CDN read it; null when it holds anything else Node refuses (a control
 * byte, a space), which is not safe to guess at.
 */
export function encodeRawTarget(target: Buffer): string | null {
  let out = '';
  for (const byte of target) {
    if (byte >= 0x80) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    else if (byte > 0x20 && byte < 0x7f) out += String.fromCharCode(byte);
    else return null;
  }
  return out;
}

/**
 * The request in a head Node's parser refused, when its only fault is raw UTF-8 bytes in the
 * target: method, the target percent-encoded, and headers. Null for anything else (a partial
 * head, a malformed line, a bad header), which gets a plain 400.
 */
export function reReadHead(raw: Buffer, origin: string): RequestLike | null {
  const end = raw.indexOf(HEAD_END);
  if (end < 0) return null;
  const lines = raw.subarray(0, end).toString('latin1').split('\r\n');
  const requestLine = REQUEST_LINE.exec(lines[0]!);
  if (requestLine === null) return null;
  const target = encodeRawTarget(Buffer.from(requestLine[2]!, 'latin1'));
  if (target === null || !target.startsWith('/')) return null;
  const headers: IncomingHttpHeaders = {};
  for (const line of lines.slice(1)) {
    const header = HEADER_LINE.exec(line);
    if (header === null) return null;
    const name = header[1]!.toLowerCase();
    headers[name] = headers[name] === undefined ? header[2]! : `${String(headers[name])}, ${header[2]!}`;
  }
  return { method: requestLine[1]!, url: absoluteUrl(target, origin), headers: headerReader(headers) };
}

/** Node's parser refused the head for its size: 431, as Node says it; anything else it refused: 400. */
const refusedStatus = (code: string | undefined): 400 | 431 => (code === 'HPE_HEADER_OVERFLOW' ? 431 : 400);

/** The reply for a request Node refused, with the headers every answer carries and the API's error body. */
async function refusedReply(status: 400 | 431): Promise<Reply> {
  const answer = requestRefused(status);
  return replyOf(answer, { etag: await contentHash(answer.body), version: undefined });
}

/** A reply written on the socket itself (Node gives no response object for a refused request); the connection then closes. */
function writeRawReply(socket: Duplex, reply: Reply): void {
  const head = [`HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status] ?? ''}`];
  for (const [name, value] of Object.entries(reply.headers)) head.push(`${name}: ${value}`);
  head.push('connection: close', '', '');
  socket.end(Buffer.concat([Buffer.from(head.join('\r\n'), 'latin1'), reply.body ?? Buffer.alloc(0)]));
}

/**
 * Node's `clientError`: a request its HTTP parser refused. One whose only fault is raw UTF-8 in
 * the target is answered as its percent-encoded form; any other gets the API's JSON error with
 * the usual headers instead of Node's empty 400 or 431. (A client that half-closes right after
 * its request gets nothing: Node ends a refused connection on its FIN. curl does not.)
 */
export function refusedRequestListener(respond: Respond, origin: string) {
  return (error: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex): void => {
    // as Node itself does: once anything was written on this connection, a reply of ours could
    // land inside another one, so the connection is only closed
    if (error.code === 'ECONNRESET' || !socket.writable || (socket as Duplex & { bytesWritten?: number }).bytesWritten !== 0) {
      socket.destroy();
      return;
    }
    const request = error.code === 'HPE_INVALID_URL' && error.rawPacket ? reReadHead(error.rawPacket, origin) : null;
    const reply = request === null ? refusedReply(refusedStatus(error.code)) : respond(request).catch((fault: unknown) => failureReply(request, fault));
    reply.then(
      (r) => writeRawReply(socket, r),
      () => socket.destroy(),
    );
  };
}

export interface Preview {
  url: string;
  close(): Promise<void>;
}

export interface PreviewStartOptions extends PreviewCacheSizes {
  root: string;
  /** the base URL of computed pages when the build has no stamp to say it */
  baseUrl: string;
  port: number;
  host?: string;
}

/**
 * How long an idle connection stays open. Node's 5 s is shorter than the pauses of the clients that
 * pool connections (fetch, bots, the tests' own workers): a client whose event loop was busy past
 * it sends its next request on a socket the server has just closed, and gets "other side closed"
 * instead of an answer. A minute, as CDNs and nginx keep them, and the `Keep-Alive` header says so.
 */
export const IDLE_CONNECTION_MS = 65_000;

export function startPreview(options: PreviewStartOptions): Promise<Preview> {
  const host = options.host ?? '127.0.0.1';
  const respond = createServing(options.root, options.baseUrl, options);
  const server = createServer({ keepAliveTimeout: IDLE_CONNECTION_MS }, nodeListener(respond, `http://${host}`));
  server.on('clientError', refusedRequestListener(respond, `http://${host}`));
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : options.port;
      resolvePromise({
        url: `http://${host}:${port}`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
