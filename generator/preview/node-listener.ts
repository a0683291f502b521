/**
 * The preview's HTTP shell: a plain node:http server whose every request goes to the request
 * logic's composition (edge/http.ts around edge/handler.ts, with compression) for one build.
 * It only translates: Node's request into a RequestLike, a Reply into Node's response.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Reply, RequestLike, Respond } from '../../edge/http.ts';
import { createServing, type PreviewCacheSizes } from './served-build.ts';

/** The request's URL; one that cannot be parsed is passed as it is, for the request logic's 404. */
function absoluteUrl(path: string, origin: string): string {
  try {
    return new URL(path, origin).href;
  } catch {
    return path;
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

/** The answer when answering itself failed: a 404 like any missing thing, never a 5xx. */
function writeFailure(res: ServerResponse, method: string): void {
  res.statusCode = 404;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (method !== 'HEAD') res.write('"Not Found"');
  res.end();
}

/** A Node request listener around an answering function. */
export function nodeListener(respond: Respond, origin: string) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const method = req.method ?? 'GET';
    const request: RequestLike = { method, url: absoluteUrl(req.url ?? '/', origin), headers: headerReader(req.headers) };
    respond(request).then(
      (reply) => writeReply(res, reply),
      () => writeFailure(res, method),
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

export function startPreview(options: PreviewStartOptions): Promise<Preview> {
  const host = options.host ?? '127.0.0.1';
  const server = createServer(nodeListener(createServing(options.root, options.baseUrl, options), `http://${host}`));
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
