/**
 * Shapes shared by many responses, written once. Field names follow the upstream service.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A link to another resource by name. */
export const NamedResource = Type.Object(
  { name: Type.String(), url: Type.String({ format: 'uri' }) },
  { additionalProperties: false },
);
export type NamedResource = Static<typeof NamedResource>;

/** A link to a resource that has no name (evolution chain, machine, characteristic, ...). */
export const ApiResource = Type.Object({ url: Type.String({ format: 'uri' }) }, { additionalProperties: false });
export type ApiResource = Static<typeof ApiResource>;

/** How often a creature is found holding an item in one game version (creatures and items). */
export const HeldItemVersionDetail = Type.Object({ rarity: Type.Integer(), version: NamedResource }, { additionalProperties: false });
export type HeldItemVersionDetail = Static<typeof HeldItemVersionDetail>;

/** An entry of `names`: a name in one language. */
export const Name = Type.Object({ name: Type.String(), language: NamedResource }, { additionalProperties: false });
export type Name = Static<typeof Name>;

export const Description = Type.Object({ description: Type.String(), language: NamedResource }, { additionalProperties: false });
export type Description = Static<typeof Description>;

export const Effect = Type.Object({ effect: Type.String(), language: NamedResource }, { additionalProperties: false });
export type Effect = Static<typeof Effect>;

export const VerboseEffect = Type.Object(
  { effect: Type.String(), short_effect: Type.String(), language: NamedResource },
  { additionalProperties: false },
);
export type VerboseEffect = Static<typeof VerboseEffect>;

export const FlavorTextByVersionGroup = Type.Object(
  { flavor_text: Type.String(), language: NamedResource, version_group: NamedResource },
  { additionalProperties: false },
);
export type FlavorTextByVersionGroup = Static<typeof FlavorTextByVersionGroup>;

export const FlavorTextByVersion = Type.Object(
  { flavor_text: Type.String(), language: NamedResource, version: NamedResource },
  { additionalProperties: false },
);
export type FlavorTextByVersion = Static<typeof FlavorTextByVersion>;

export const GenerationGameIndex = Type.Object({ game_index: Type.Integer(), generation: NamedResource }, { additionalProperties: false });
export type GenerationGameIndex = Static<typeof GenerationGameIndex>;

export const VersionGameIndex = Type.Object({ game_index: Type.Integer(), version: NamedResource }, { additionalProperties: false });
export type VersionGameIndex = Static<typeof VersionGameIndex>;

/** How an effect read before a version group changed it (abilities and moves). */
export const EffectChange = Type.Object({ effect_entries: Type.Array(Effect), version_group: NamedResource }, { additionalProperties: false });
export type EffectChange = Static<typeof EffectChange>;

/** A machine that teaches a move, in one version group (moves and items list them). */
export const MachineVersionDetail = Type.Object({ machine: ApiResource, version_group: NamedResource }, { additionalProperties: false });
export type MachineVersionDetail = Static<typeof MachineVersionDetail>;

/** A page of a collection: the specification's "Paginated list". */
export const PaginatedList = Type.Object(
  {
    count: Type.Integer({ minimum: 0 }),
    next: Nullable(Type.String({ format: 'uri' })),
    previous: Nullable(Type.String({ format: 'uri' })),
    results: Type.Array(Type.Union([NamedResource, ApiResource])),
  },
  { additionalProperties: false },
);
export type PaginatedList = Static<typeof PaginatedList>;

/** The body of every 404. */
export const NotFound = Type.Literal('Not Found');
