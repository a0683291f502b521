/** Every resource kind the service builds, by group. */
import * as battle from './kinds/battle.ts';
import * as creatures from './kinds/creatures.ts';
import * as items from './kinds/items.ts';
import * as moves from './kinds/moves.ts';
import * as species from './kinds/species.ts';
import * as world from './kinds/world.ts';
import type { KindRecord } from './define.ts';

export const allKinds = [...creatures.kinds, ...species.kinds, ...moves.kinds, ...battle.kinds, ...world.kinds, ...items.kinds] as const;

type AnyKind = (typeof allKinds)[number];

/** The kinds of this API's own (`upstream: false`): the root index and the search leave them out. */
export const ownKinds: ReadonlySet<string> = new Set(allKinds.filter((k) => 'upstream' in k && k.upstream === false).map((k) => k.kind));
export type KindName = AnyKind['kind'];
/** The canonical record type of each kind, by its path segment. */
export type RecordOf<K extends KindName> = KindRecord<Extract<AnyKind, { kind: K }>>;
