import type { AnyResource } from '../define.ts';
import { creatureColor } from './creature-color.ts';

export const resources: AnyResource[] = [creatureColor];
