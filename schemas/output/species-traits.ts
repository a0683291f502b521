/** Responses of the species' classification resources: color, habitat, shape. */
import { Type } from '@sinclair/typebox';
import { Name, NamedResource } from './common.ts';

export const CreatureColor = Type.Object(
  { id: Type.Integer(), name: Type.String(), names: Type.Array(Name), creature_species: Type.Array(NamedResource) },
  { additionalProperties: false },
);
