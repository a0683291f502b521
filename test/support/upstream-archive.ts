/**
 * What the fetch tests serve: archives in the upstream repository's layout, made the way
 * GitHub makes them (`git archive`: `pokeapi-<commit>/data/v2/csv/<table>.csv`, pax headers),
 * and a local HTTP server on 127.0.0.1 that can also answer 404, cut an archive short or hang.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A .tar.gz of `csvDir`'s files under `<prefix>/data/v2/csv/`, beside files elsewhere that must be passed over. */
export function upstreamArchive(csvDir: string, prefix: string): Buffer {
  const repo = mkdtempSync(join(tmpdir(), 'upstream-repo-'));
  try {
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', repo, '-c', 'user.name=test', '-c', 'user.email=test@example.invalid', ...args], { maxBuffer: 1 << 30 });
    mkdirSync(join(repo, 'data/v2/csv'), { recursive: true });
    cpSync(csvDir, join(repo, 'data/v2/csv'), { recursive: true });
    // the rest of the repository, which the fetch must pass over
    writeFileSync(join(repo, 'README.md'), 'the upstream repository\n');
    mkdirSync(join(repo, 'data/v2/other'), { recursive: true });
    writeFileSync(join(repo, 'data/v2/other/elsewhere.csv'), 'id\n1\n');
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'fixture');
    return git('archive', '--format=tar.gz', `--prefix=${prefix}/`, 'HEAD');
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
}

export type Route =
  | { body: Buffer }
  /**
   * the first `cutAt` bytes of the body as if they were all (a half-copied file on a mirror);
   * `sized`: announced with the whole body's Content-Length, then the connection drops
   */
  | { body: Buffer; cutAt: number; sized?: boolean }
  /** headers and the first `stallAt` bytes, then nothing, ever */
  | { body: Buffer; stallAt: number }
  /** never answers at all */
  | { hang: true };

export interface TestServer {
  url(path: string): string;
  route(path: string, route: Route): void;
  /** requests received per path */
  hits: Map<string, number>;
  close(): Promise<void>;
}

export async function startTestServer(): Promise<TestServer> {
  const routes = new Map<string, Route>();
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes.get(path);
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no such archive');
      return;
    }
    if ('hang' in route) return;
    // like GitHub's codeload, archives are sent without a length unless a route asks for one
    const sized = !('cutAt' in route) || route.sized === true;
    res.writeHead(200, { 'content-type': 'application/x-gzip', ...(sized ? { 'content-length': String(route.body.length) } : {}) });
    if ('cutAt' in route) {
      if (route.sized) res.write(route.body.subarray(0, route.cutAt), () => res.destroy());
      else res.end(route.body.subarray(0, route.cutAt));
    } else if ('stallAt' in route) res.write(route.body.subarray(0, route.stallAt));
    else res.end(route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    route: (path, route) => void routes.set(path, route),
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A tiny invented data set: three tables. */
export function tinyTables(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'colors.csv'), 'id,identifier\n1,teal\n2,amber\n');
  writeFileSync(join(dir, 'shapes.csv'), 'id,identifier,corners\n1,square,4\n2,circle,\n');
  // longer than the 100 bytes a plain tar name holds, with the prefix: needs ustar's prefix or pax
  writeFileSync(join(dir, 'an_unusually_long_table_name_to_need_the_long_path_forms.csv'), 'id\n1\n');
  return dir;
}
