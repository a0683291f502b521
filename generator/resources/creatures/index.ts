import type { AnyResource } from '../define.ts';
import { creature } from './creature.ts';
import { creatureForm } from './creature-form.ts';

export const resources: AnyResource[] = [creature, creatureForm];
