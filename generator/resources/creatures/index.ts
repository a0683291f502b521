import type { AnyResource } from '../define.ts';
import { creature } from './creature.ts';
import { creatureForm } from './creature-form.ts';
import { entry } from './entry.ts';

export const resources: AnyResource[] = [creature, creatureForm, entry];
