/**
 * The upstream's own word on a commit, without a clone: which commit its default branch's head
 * is, and the git blob SHA-1 of every table at a commit (GitHub's git-trees listing), with the
 * commits its sprite and cry submodules point at. A team copy's TREE.txt can stand in for the
 * listing (it has the tables' hashes, not the submodules').
 *
 *   latestCommit(url) → sha;  listingFromGitHub(url, tablesPath) / listingFromTree(text) → Listing
 */
import { FetchError } from '../fetch/index.ts';
import { parseTree } from '../fetch/lock.ts';

/** GitHub's API, where `DATA_LATEST_URL` and `DATA_TREE_URL` point unless set. */
export const UPSTREAM_LATEST_URL = 'https://api.github.com/repos/PokeAPI/pokeapi/commits/master';
export const UPSTREAM_TREE_URL = 'https://api.github.com/repos/PokeAPI/pokeapi/git/trees/{commit}?recursive=1';

export interface ListedTable {
  sha1: string;
  /** bytes, when the listing says (GitHub's does; a TREE.txt does not) */
  size?: number;
}

export interface Listing {
  commit: string;
  /** by file name, as under the tables folder */
  tables: Map<string, ListedTable>;
  /** submodule path → the commit it points at; null when the listing does not say (a TREE.txt) */
  submodules: Record<string, string> | null;
}

const TIMEOUT_MS = 30_000;

/** A JSON answer, or a FetchError naming the URL and what went wrong; a network error is tried once more (a kept-alive connection the server just closed). */
async function getJson(url: string, attempts = 2): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/vnd.github+json', 'user-agent': 'creature-reference-api' },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (e) {
    if (attempts > 1) return getJson(url, attempts - 1);
    throw new FetchError(`could not ask ${url}: ${e instanceof Error ? ((e.cause as Error | undefined)?.message ?? e.message) : String(e)}`, { cause: e });
  }
  const text = await response.text();
  if (!response.ok) throw new FetchError(`${url} answered HTTP ${response.status}: ${text.slice(0, 200)}`);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw new FetchError(`${url} did not answer JSON: ${text.slice(0, 200)}`, { cause: error });
  }
}

/** The head commit of the upstream's default branch (`sha` of GitHub's commit answer). */
export async function latestCommit(url: string): Promise<string> {
  const sha = ((await getJson(url)) as { sha?: unknown }).sha;
  if (typeof sha !== 'string' || !/^[0-9a-f]{40}$/.test(sha)) throw new FetchError(`${url} names no commit (its answer has no 40-hex "sha")`);
  return sha;
}

interface TreeEntry {
  path?: unknown;
  type?: unknown;
  sha?: unknown;
  size?: unknown;
}

/** The tables (blobs directly under `tablesPath`, `.csv`) and the submodules (entries of type "commit") of a git-trees answer. */
export function listingFromTreeAnswer(commit: string, answer: unknown, tablesPath: string, url = 'the listing'): Listing {
  const body = answer as { tree?: unknown; truncated?: unknown };
  if (!Array.isArray(body.tree)) throw new FetchError(`${url} is not a git-trees listing (it has no "tree" array)`);
  if (body.truncated === true) throw new FetchError(`${url} is truncated: GitHub cut the listing short, so some tables' hashes are unknown`);
  const prefix = `${tablesPath.replace(/^\/+|\/+$/g, '')}/`;
  const tables = new Map<string, ListedTable>();
  const submodules: Record<string, string> = {};
  for (const entry of body.tree as TreeEntry[]) {
    if (typeof entry.path !== 'string' || typeof entry.sha !== 'string') continue;
    if (entry.type === 'commit') submodules[entry.path] = entry.sha;
    const name = entry.path.slice(prefix.length);
    if (entry.type !== 'blob' || !entry.path.startsWith(prefix) || name.includes('/') || !name.endsWith('.csv')) continue;
    tables.set(name, typeof entry.size === 'number' ? { sha1: entry.sha, size: entry.size } : { sha1: entry.sha });
  }
  if (!tables.size) throw new FetchError(`${url} lists no tables under ${prefix}`);
  return { commit, tables, submodules };
}

/** The git-trees listing of `commit` from `urlTemplate` (`{commit}` replaced). */
export async function listingFromGitHub(urlTemplate: string, commit: string, tablesPath: string): Promise<Listing> {
  const url = urlTemplate.replaceAll('{commit}', commit);
  return listingFromTreeAnswer(commit, await getJson(url), tablesPath, url);
}

/** A team copy's TREE.txt as a listing: its commit and hashes; no sizes, no submodules. */
export function listingFromTree(text: string, source: string): Listing {
  const { commit, hashes } = parseTree(text);
  if (!commit) throw new FetchError(`${source} names no commit on its first comment line`);
  if (!hashes.size) throw new FetchError(`${source} lists no tables`);
  return { commit, tables: new Map([...hashes].map(([name, sha1]) => [name, { sha1 }])), submodules: null };
}
