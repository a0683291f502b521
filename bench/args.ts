/**
 * The command lines of the bench's entries, read with node:util's parseArgs: a flag an entry
 * does not know, or one without its value, stops it with the entry's usage line rather than
 * being passed over (a mistyped `--round 3` would otherwise measure ten rounds).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { metaFile, type Meta } from '../contract/layout.ts';
import { repoRoot } from '../generator/config.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Whether `e` is parseArgs's word on a command line it cannot read, and nothing else. */
const isParseError = (e: unknown): e is TypeError => e instanceof TypeError && String((e as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS_');

/** This process's arguments after the script, as `options` declare them; a mistake throws, ending with `usage`. */
export function readArgs<const T extends Options>(usage: string, options: T, allowPositionals = false) {
  try {
    return parseArgs({ args: process.argv.slice(2), options, allowPositionals, strict: true });
  } catch (e) {
    if (!isParseError(e)) throw e;
    throw new Error(`${e.message}\nusage: ${usage}`, { cause: e });
  }
}

/** A flag's count (`--rounds 10`): a whole number, 0 or more. */
export function countFlag(value: string, flag: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 0) throw new Error(`--${flag} ${value}: a whole number, 0 or more`);
  return n;
}

/** The checkout a bench part run alone measures: `--root DIR`, else this one. */
export function checkoutArg(usage: string): string {
  return readArgs(usage, { root: { type: 'string' } }).values.root ?? repoRoot;
}

/** A bench file run alone on a built dist/: its DIST argument, and the base URL (the second argument, or the build's own). */
export function distArgs(usage: string): { dist: string; baseUrl: string } {
  const [dist, given, ...more] = readArgs(usage, {}, true).positionals;
  if (!dist || more.length) throw new Error(`usage: ${usage}`);
  const baseUrl = given ?? (JSON.parse(readFileSync(join(dist, metaFile), 'utf8')) as Meta).base_url;
  return { dist, baseUrl };
}
