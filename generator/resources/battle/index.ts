import type { AnyResource } from '../define.ts';
import { ability } from './ability.ts';
import { characteristic } from './characteristic.ts';
import { nature } from './nature.ts';
import { pokeathlonStat } from './pokeathlon-stat.ts';
import { stat } from './stat.ts';
import { type } from './type.ts';

export const resources: AnyResource[] = [type, ability, stat, characteristic, nature, pokeathlonStat];
