/**
 * Parsing of the query parameters that filter, batch, order and shape a collection: value lists
 * (`type=fire,water`), integer ranges (`speed=100..`), `id=`/`name=` batches, `fields=`,
 * `sort=`, `facets=` and `summary=`.
 * Every parser is total: it gives a value or a `ParameterError`, never throws, and its work is
 * bounded by the caps below whatever the input. An error becomes the JSON body of a 400
 * through contract/error-body.ts `badParameterBody`:
 *
 *   {"error":"bad_parameter","detail":"The value of the query parameter type was not understood; …",
 *    "parameter":"type","value":"firee","accepts":"a type name or id: normal, fighting, …"}
 *
 * `value` is the offending part (one list item, or the whole value when its form is wrong), cut
 * to 100 characters; `accepts` says what the parameter takes.
 *
 * Rules chosen here:
 * - A value filter given several times means all of its values, each repeat any of its
 *   comma-separated ones: `type=grass,fire&type=poison` is (grass or fire) and poison. A range
 *   given several times is their intersection (`speed=100..&speed=..110`; one that leaves no
 *   number matches nothing). At most `repeats` of either.
 * - `id`, `name`, `fields`, `sort`, `facets` and `summary` given several times mean their
 *   values joined with commas.
 * - Items are trimmed; empty items are skipped (`fire,,water`); a parameter with no item at all
 *   (`type=`, `type=,,,`) is as if it were absent, as an empty form field sends it.
 * - Names are compared in lower case; an id is a decimal integer (no sign, at most 9 digits).
 * - Ranges: `a..b`, `a..`, `..b` or a single `a` (meaning `a..a`), inclusive, integers with an
 *   optional minus sign (move priorities go below zero). `..`, `5..3`, decimals, `+5` and
 *   anything else are 400s. A bound past ±(2^53 − 1) is held there, which means the same as
 *   the number written (`1..99999999999999999999` is "at least 1").
 * - Invalid UTF-8 (`%FF`) reaches the parsers as U+FFFD (URLSearchParams decodes it so): it is
 *   in no vocabulary and no number, so it is a 400 naming the value, never a throw.
 */

/** What a malformed parameter was and what it takes: the 400 body's fields. */
export interface ParameterError {
  parameter: string;
  value: string;
  accepts: string;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: ParameterError };

/** Caps that bound the work of any request, whatever it sends. */
export const QUERY_LIMITS = {
  /** the whole query string, in characters */
  queryLength: 8192,
  /** one parameter's value, repeats joined, in characters */
  valueLength: 2000,
  /** items in one list (`type`, `id`, `name`) */
  listItems: 100,
  /** paths in `fields` */
  fieldPaths: 50,
  /** characters of a value echoed in an error body */
  echoLength: 100,
  /** times one value filter or range may be given */
  repeats: 10,
  /** keys in `sort` */
  sortKeys: 5,
  /** filters in `facets` */
  facets: 5,
  /** ranges in `summary` */
  summaries: 10,
} as const;

/** What a value list resolves against: a filter's values (see filter.ts) or a kind's names and ids. */
export interface Vocabulary {
  /** the value's key for a lowercase name or a decimal id, or undefined when it names nothing */
  lookup(token: string): number | undefined;
  /** what the parameter accepts, for the 400 body */
  readonly accepts: string;
}

export interface IntegerRange {
  /** inclusive; null when open */
  min: number | null;
  max: number | null;
}

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = (parameter: string, value: string, accepts: string): Parsed<never> => ({
  ok: false,
  error: { parameter, value: echo(value), accepts },
});

/** A value as an error body shows it: at most `echoLength` characters. */
function echo(value: string): string {
  const chars = Array.from(value.slice(0, QUERY_LIMITS.echoLength * 2));
  return chars.length > QUERY_LIMITS.echoLength ? chars.slice(0, QUERY_LIMITS.echoLength).join('') + '…' : chars.join('');
}

/**
 * The query string as it is, or a 400 when it is past the cap (a CDN refuses longer URLs
 * anyway). Splitting it into parameters is contract/query/params.ts's, the one reader of the query.
 */
export function checkQueryLength(search: string): Parsed<string> {
  if (search.length > QUERY_LIMITS.queryLength) return fail('*', search, `a query string of at most ${QUERY_LIMITS.queryLength} characters`);
  return ok(search);
}

/**
 * A parameter's items across its repeats, trimmed, empty ones skipped, in lower case when
 * asked; null when it has none (absent). Fails past the length and count caps.
 */
function items(parameter: string, values: readonly string[], maxItems: number, lowerCase: boolean): Parsed<string[] | null> {
  const joined = values.join(',');
  if (joined.length > QUERY_LIMITS.valueLength) {
    return fail(parameter, joined, `at most ${QUERY_LIMITS.valueLength} characters`);
  }
  const list = listItems(values, lowerCase, maxItems + 1);
  if (list.length > maxItems) return fail(parameter, joined, `at most ${maxItems} comma-separated values`);
  return ok(list.length === 0 ? null : list);
}

/**
 * A list parameter's items as the parsers read them: repeats joined with commas, each item
 * trimmed, empty ones skipped, in lower case when asked; at most `upTo` of them.
 */
export function listItems(values: readonly string[], lowerCase: boolean, upTo = Infinity): string[] {
  const list: string[] = [];
  for (const raw of values.join(',').split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    if (list.length === upTo) break;
    list.push(lowerCase ? item.toLowerCase() : item);
  }
  return list;
}

/**
 * Value list: each item must name something in the vocabulary (by name or id). Gives the
 * distinct keys in the order first named; null when the parameter is absent.
 */
export function parseValues(parameter: string, values: readonly string[], vocabulary: Vocabulary): Parsed<number[] | null> {
  const list = items(parameter, values, QUERY_LIMITS.listItems, true);
  if (!list.ok) return list;
  if (list.value === null) return ok(null);
  const keys: number[] = [];
  for (const item of list.value) {
    const key = vocabulary.lookup(item);
    if (key === undefined) return fail(parameter, item, vocabulary.accepts);
    if (!keys.includes(key)) keys.push(key);
  }
  return ok(keys);
}

/**
 * A value filter given once or more: per repeat (that has an item), the distinct keys it names;
 * all repeats are matched, any key within one. Null when absent. Caps: the items of all repeats
 * together, and the number of repeats.
 */
export function parseValueGroups(parameter: string, values: readonly string[], vocabulary: Vocabulary): Parsed<number[][] | null> {
  const all = items(parameter, values, QUERY_LIMITS.listItems, false);
  if (!all.ok) return all;
  const given = values.filter((value) => listItems([value], false, 1).length > 0);
  if (given.length > QUERY_LIMITS.repeats) return fail(parameter, given.join('&'), repeatsAccepted(parameter));
  const groups: number[][] = [];
  for (const value of given) {
    const keys = parseValues(parameter, [value], vocabulary);
    if (!keys.ok) return keys;
    groups.push(keys.value!);
  }
  return ok(groups.length === 0 ? null : groups);
}

const repeatsAccepted = (parameter: string) =>
  `${parameter} given at most ${QUERY_LIMITS.repeats} times (each time is matched: ${parameter}=a&${parameter}=b means both a and b; ${parameter}=a,b means either)`;

const ID = /^\d{1,9}$/;
const NAME = /^[a-z0-9][a-z0-9-]{0,99}$/;

/** `id=1,4,7`: distinct ids in the order given; whether each exists is the caller's to check. */
export function parseIds(parameter: string, values: readonly string[]): Parsed<number[] | null> {
  const list = items(parameter, values, QUERY_LIMITS.listItems, false);
  if (!list.ok) return list;
  if (list.value === null) return ok(null);
  const ids: number[] = [];
  for (const item of list.value) {
    if (!ID.test(item)) return fail(parameter, item, `comma-separated ids: whole numbers of at most 9 digits, e.g. 1,4,7`);
    const id = Number(item);
    if (!ids.includes(id)) ids.push(id);
  }
  return ok(ids);
}

/** `name=a,b`: distinct lowercase names as the API writes them (letters, digits, hyphens). */
export function parseNames(parameter: string, values: readonly string[]): Parsed<string[] | null> {
  const list = items(parameter, values, QUERY_LIMITS.listItems, true);
  if (!list.ok) return list;
  if (list.value === null) return ok(null);
  for (const item of list.value) {
    if (!NAME.test(item)) return fail(parameter, item, `comma-separated names: letters, digits and hyphens, e.g. bulbasaur,charmander`);
  }
  return ok([...new Set(list.value)]);
}

const RANGE = /^(-?\d+)?\.\.(-?\d+)?$/;
const INTEGER = /^-?\d+$/;
const RANGE_ACCEPTS = 'an integer range: 100.. (at least), ..50 (at most), 80..100 (inclusive, low ≤ high) or 90 (exactly)';

/** An integer, held within ±(2^53 − 1): past that, every bound means the same. */
function boundedInteger(digits: string): number {
  const n = Number(digits);
  return Math.max(-Number.MAX_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, n));
}

/**
 * `speed=100..` and the like, given once or more: the intersection of the ranges (min above max
 * when they share no number, which then matches nothing); null when absent.
 */
export function parseRange(parameter: string, values: readonly string[]): Parsed<IntegerRange | null> {
  const given = [...new Set(values.map((v) => v.trim()).filter((v) => v !== ''))];
  if (given.length === 0) return ok(null);
  if (given.length > QUERY_LIMITS.repeats) return fail(parameter, given.join('&'), repeatsAccepted(parameter));
  let both: IntegerRange = { min: null, max: null };
  for (const text of given) {
    const range = parseOneRange(parameter, text);
    if (!range.ok) return range;
    both = intersectRanges(both, range.value);
  }
  return ok(both);
}

const intersectRanges = (a: IntegerRange, b: IntegerRange): IntegerRange => ({
  min: a.min === null ? b.min : b.min === null ? a.min : Math.max(a.min, b.min),
  max: a.max === null ? b.max : b.max === null ? a.max : Math.min(a.max, b.max),
});

/** One range as written. */
function parseOneRange(parameter: string, text: string): Parsed<IntegerRange> {
  if (text.length > 64) return fail(parameter, text, RANGE_ACCEPTS);
  if (INTEGER.test(text)) {
    const n = boundedInteger(text);
    return ok({ min: n, max: n });
  }
  const match = RANGE.exec(text);
  if (match === null || (match[1] === undefined && match[2] === undefined)) return fail(parameter, text, RANGE_ACCEPTS);
  const min = match[1] === undefined ? null : boundedInteger(match[1]);
  const max = match[2] === undefined ? null : boundedInteger(match[2]);
  if (min !== null && max !== null && min > max) return fail(parameter, text, RANGE_ACCEPTS);
  return ok({ min, max });
}

const PATH = /^[a-z0-9_-]{1,64}(\.[a-z0-9_-]{1,64}){0,7}$/;

/**
 * `fields=types,sprites.front_default`: distinct dotted paths, each one the kind allows or one
 * of the paths below them its items' schema has (`stats` gives `stats.base_stat`); null when
 * absent. A path below that the item cannot have (`types.nope`) is a 400 naming it, not an
 * entry without it.
 */
export function parseFields(parameter: string, values: readonly string[], allowed: readonly string[], below: readonly string[] = []): Parsed<string[] | null> {
  const list = items(parameter, values, QUERY_LIMITS.fieldPaths, false);
  if (!list.ok) return list;
  if (list.value === null) return ok(null);
  for (const path of list.value) {
    if (!PATH.test(path) || !(allowed.includes(path) || below.includes(path))) return fail(parameter, path, fieldsAccepts(allowed, below));
  }
  return ok([...new Set(list.value)]);
}

function fieldsAccepts(allowed: readonly string[], below: readonly string[]): string {
  const example = below.length > 0 ? ` or a path below one that its items have, e.g. ${below[0]}` : '';
  return `comma-separated fields, each one of: ${allowed.join(', ')}${example}`;
}

/** One key of `sort`: a name the kind sorts by, and whether descending (`-height`). */
export interface SortKey {
  key: string;
  descending: boolean;
}

/**
 * `sort=-height,id`: at most `sortKeys` distinct keys, each one of `keys` (`id`, `name`, the
 * kind's ranges) with an optional leading `-` for descending; null when absent.
 */
export function parseSort(parameter: string, values: readonly string[], keys: readonly string[]): Parsed<SortKey[] | null> {
  const list = items(parameter, values, QUERY_LIMITS.sortKeys, true);
  if (!list.ok) return list;
  if (list.value === null) return ok(null);
  const accepts = `comma-separated sort keys, each at most once and led by - for descending, at most ${QUERY_LIMITS.sortKeys} of: ${keys.join(', ')}`;
  const out: SortKey[] = [];
  for (const item of list.value) {
    const descending = item.startsWith('-');
    const key = descending ? item.slice(1) : item;
    if (!keys.includes(key) || out.some((k) => k.key === key)) return fail(parameter, item, accepts);
    out.push({ key, descending });
  }
  return ok(out);
}

/**
 * `facets=type,generation` (value filters of the kind) and `summary=speed,hp` (its ranges):
 * distinct names, each one of `allowed`, at most `cap`; null when absent.
 */
export function parseNameList(parameter: string, values: readonly string[], allowed: readonly string[], what: string, cap: number): Parsed<string[] | null> {
  const list = items(parameter, values, cap, true);
  if (!list.ok) return list;
  if (list.value === null) return ok(null);
  const accepts = allowed.length === 0 ? `nothing: this collection has no ${what}` : `comma-separated ${what}, at most ${cap} of: ${allowed.join(', ')}`;
  for (const name of list.value) if (!allowed.includes(name)) return fail(parameter, name, accepts);
  return ok([...new Set(list.value)]);
}
