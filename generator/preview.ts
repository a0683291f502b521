/**
 * The local preview: http-server as the HTTP shell, with one `before` middleware that hands
 * every request to the shared request logic (edge/handler.ts), which reads files under dist/.
 */
import { readFile } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import httpServer from 'http-server';
import { createHandler, type FileReader } from '../edge/handler.ts';

/** Reads files under `root` only; any path that would leave it reads as missing. */
export function diskReader(root: string): FileReader {
  const base = resolve(root) + sep;
  return {
    async read(path) {
      const full = resolve(base, path);
      if (!full.startsWith(base)) return null;
      try {
        return await readFile(full);
      } catch {
        return null;
      }
    },
  };
}

type Handle = ReturnType<typeof createHandler>;

/** Writes a web Response onto a Node response. */
async function send(response: Response, res: ServerResponse): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : null;
  res.end(body);
}

export function previewMiddleware(handle: Handle, origin: string) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const request = new Request(new URL(req.url ?? '/', origin), { method: req.method ?? 'GET' });
    handle(request)
      .then((response) => send(response, res))
      .catch(() => {
        res.statusCode = 404;
        res.setHeader('Content-Type', 'application/json; charset=utf-8');
        res.end('"Not Found"');
      });
  };
}

export interface Preview {
  url: string;
  close(): Promise<void>;
}

export function startPreview(options: { root: string; baseUrl: string; port: number; host?: string }): Promise<Preview> {
  const handle = createHandler(diskReader(options.root), { baseUrl: options.baseUrl });
  const host = options.host ?? '127.0.0.1';
  const server = httpServer.createServer({
    root: options.root,
    before: [previewMiddleware(handle, `http://${host}`)],
    showDir: 'false',
    autoIndex: 'false',
    cache: -1,
  });
  return new Promise((resolvePromise) => {
    server.listen(options.port, host, () => {
      const address = server.server.address();
      const port = typeof address === 'object' && address ? address.port : options.port;
      resolvePromise({
        url: `http://${host}:${port}`,
        close: () =>
          new Promise((done) => {
            server.server.closeAllConnections();
            server.server.close(() => done());
          }),
      });
    });
  });
}
