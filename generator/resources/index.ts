/** Every resource the service answers, by group. Each group file is owned by one area of the data. */
import { resources as battle } from './battle/index.ts';
import { resources as creatures } from './creatures/index.ts';
import { resources as items } from './items/index.ts';
import { resources as moves } from './moves/index.ts';
import { resources as species } from './species/index.ts';
import { resources as world } from './world/index.ts';
import type { AnyResource } from './define.ts';

export const allResources: readonly AnyResource[] = [...creatures, ...species, ...moves, ...battle, ...world, ...items];
