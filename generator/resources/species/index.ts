import type { AnyResource } from '../define.ts';
import { palParkArea, pokedex } from './catalogues.ts';
import { creatureColor } from './creature-color.ts';
import { creatureSpecies } from './creature-species.ts';
import { evolutionChain, evolutionTrigger } from './evolution.ts';
import { creatureHabitat, creatureShape, eggGroup, gender, growthRate } from './species-traits.ts';

export const resources: AnyResource[] = [
  creatureSpecies,
  evolutionChain,
  evolutionTrigger,
  creatureColor,
  creatureHabitat,
  creatureShape,
  eggGroup,
  growthRate,
  gender,
  palParkArea,
  pokedex,
];
