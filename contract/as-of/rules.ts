/**
 * The rules of "as of a game", as pure functions over any form of the values (the
 * documents' links, or the facts' ids): which past entry applies, and what existed. `g` is the
 * generation of the version group asked for, `order` its place among version groups.
 *
 * The upstream's `past_*` entries name the last generation in which their values held, so the
 * entry that applies as of generation g is the one of the smallest generation ≥ g; a move's
 * `past_values` name the version group that changed them, so the values held before it.
 */
import type { Past, Relations } from './facts.ts';

/** The first generation with abilities. */
export const FIRST_ABILITY_GENERATION = 3;
/** Generation I's one special stat, where later generations have two. */
export const SPECIAL_STAT = 9;
export const SPLIT_SPECIAL_STATS: readonly number[] = [4, 5];

/** The value of the past entry of the smallest generation ≥ g that `holds` accepts; undefined when none applies. */
export function pastValue<T>(past: readonly Past<T>[], g: number, holds: (value: T) => boolean = () => true): T | undefined {
  let best: Past<T> | undefined;
  for (const entry of past) {
    if (entry[0] >= g && (best === undefined || entry[0] < best[0]) && holds(entry[1])) best = entry;
  }
  return best?.[1];
}

/** Types as of generation g: the applying past entry's, else today's. */
export const typesAsOf = <T>(today: readonly T[], past: readonly Past<readonly T[]>[], g: number): readonly T[] => pastValue(past, g) ?? today;

/** How the slot-by-slot rules read an entry of either form. */
export interface Slotted<T> {
  slot: (entry: T) => number;
  /** whether the entry says the slot is empty (a past ability of null) */
  empty: (entry: T) => boolean;
}

/**
 * Abilities as of generation g: none before generation III; otherwise each slot (today's, and
 * any a past entry names) from the past entry of the smallest generation ≥ g naming it, else
 * today's; a slot whose entry is empty did not exist. In slot order.
 */
export function abilitiesAsOf<T>(today: readonly T[], past: readonly Past<readonly T[]>[], g: number, read: Slotted<T>): readonly T[] {
  if (g < FIRST_ABILITY_GENERATION) return [];
  // most creatures have no past abilities: today's, which the build lists in slot order
  if (past.length === 0) return today;
  const slots = new Set([...today.map(read.slot), ...past.flatMap(([, entries]) => entries.map(read.slot))]);
  const out: T[] = [];
  for (const slot of [...slots].sort((a, b) => a - b)) {
    const inSlot = (entries: readonly T[]) => entries.find((e) => read.slot(e) === slot);
    const then = pastValue(past, g, (entries) => inSlot(entries) !== undefined);
    const entry = then ? inSlot(then) : inSlot(today);
    if (entry !== undefined && !read.empty(entry)) out.push(entry);
  }
  return out;
}

/**
 * Stats as of generation g: each stat from the past entry of the smallest generation ≥ g naming
 * it, else today's. In generation I the special stat stands for the two it was split into
 * later; after it, it is absent. In stat id order.
 */
export function statsAsOf<T>(today: readonly T[], past: readonly Past<readonly T[]>[], g: number, statOf: (entry: T) => number): readonly T[] {
  // most creatures have no past stats: after generation I, today's, which the build lists in stat id order
  if (past.length === 0 && g > 1) return today;
  const ids = new Set([...today.map(statOf), ...past.flatMap(([, entries]) => entries.map(statOf))]);
  const out: T[] = [];
  for (const id of [...ids].sort((a, b) => a - b)) {
    if (g === 1 ? SPLIT_SPECIAL_STATS.includes(id) : id === SPECIAL_STAT) continue;
    const named = (entries: readonly T[]) => entries.find((e) => statOf(e) === id);
    const then = pastValue(past, g, (entries) => named(entries) !== undefined);
    const entry = then ? named(then) : named(today);
    if (entry !== undefined) out.push(entry);
  }
  return out;
}

/**
 * A move's field as of the version group at `order`: the value of the past entry of the
 * earliest version group after it that holds one (not null) for that field, else today's.
 */
export function moveFieldAsOf<E, V>(today: V, past: readonly E[], order: number, orderOf: (entry: E) => number, valueOf: (entry: E) => V | null): V {
  let best: E | undefined;
  let bestOrder = Infinity;
  for (const entry of past) {
    const at = orderOf(entry);
    if (at > order && at < bestOrder && valueOf(entry) !== null) [best, bestOrder] = [entry, at];
  }
  return best === undefined ? today : (valueOf(best) as V);
}

export const existsInGeneration = (generation: number, g: number): boolean => generation <= g;
export const abilityExists = (generation: number, g: number): boolean => g >= FIRST_ABILITY_GENERATION && generation <= g;

/** What an attack of a type with these relations does to a defender of `defending` types: the product of 2, ½ or 0 per type (1 when no relation names it). */
export function multiplier(attack: Relations, defending: readonly number[]): number {
  let product = 1;
  for (const type of defending) {
    if (attack.no_damage_to.includes(type)) product *= 0;
    else if (attack.double_damage_to.includes(type)) product *= 2;
    else if (attack.half_damage_to.includes(type)) product *= 0.5;
  }
  return product;
}
