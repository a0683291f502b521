/**
 * `GET /v2/meta/coverage/`: the coverage map, what the data lacks by kind,
 * generation and field. Made by the build from the item documents (generator/indexes/coverage.ts).
 */
import { Type, type Static } from '@sinclair/typebox';

const Cell = Type.Object(
  {
    gaps: Type.Integer({
      minimum: 0,
      description:
        'How many of the generation’s items have this field null, empty (`[]`, `""`, `{}`) or missing; for `names[lang]` and `flavor_text_entries[lang]`, how many have no entry in that language.',
    }),
    share: Type.Number({ minimum: 0, maximum: 1, description: '`gaps` divided by the generation’s `count`, rounded to 4 decimal places.' }),
  },
  { additionalProperties: false },
);

const GenerationCoverage = Type.Object(
  {
    generation: Type.Union([Type.String(), Type.Null()], {
      description: 'The generation’s name (`generation-i`, ...); null for the items whose generation is not known (see the kind’s `generation_rule`).',
    }),
    count: Type.Integer({ minimum: 1, description: 'How many of the kind’s items belong to this generation.' }),
    fields: Type.Record(Type.String(), Cell, { description: 'By field, in the kind’s `fields` order: the items that lack it.' }),
  },
  { additionalProperties: false },
);

const KindCoverage = Type.Object(
  {
    kind: Type.String({ description: 'The collection’s path segment.' }),
    generation_rule: Type.String({ description: 'How an item’s generation is found.' }),
    fields: Type.Array(Type.String(), {
      description:
        'The item’s top-level fields (but `id`), then `names[lang]` and `flavor_text_entries[lang]` for each of `languages` where the item has those fields.',
    }),
    generations: Type.Array(GenerationCoverage, { description: 'Oldest generation first; the unknown one (null) last.' }),
  },
  { additionalProperties: false },
);

const AsOfDisagreement = Type.Object(
  {
    as_of: Type.String({ description: 'The generation (`generation-iii`): the answers as of its last version group, `/v2/as-of/{generation}/…`.' }),
    kind: Type.String({ description: 'The collection’s path segment: `creature` or `move`.' }),
    name: Type.String({ description: 'The item’s name.' }),
    field: Type.String({ description: 'The field whose value as of that generation names them: `types` or `abilities` of a creature, `type` of a move.' }),
    names: Type.Array(Type.String(), {
      description: 'The types or abilities named that did not exist yet as of that generation (their own as-of answers are 404s).',
    }),
  },
  { additionalProperties: false },
);

export const CoverageMap = Type.Object(
  {
    languages: Type.Array(Type.String(), { description: 'English, then the five languages with the most names and flavor texts over these kinds.' }),
    kinds: Type.Array(KindCoverage, { description: 'One entry per covered kind: creature, creature-species, move, ability, item.' }),
    as_of: Type.Array(AsOfDisagreement, {
      description:
        'Where the data disagrees with itself as of a game: an as-of value (made by the rules of `/v2/as-of/`, from the upstream’s own `past_*` fields) that names a type or ability that did not exist yet then. The value is kept as the data gives it, not guessed at; each case is listed here, oldest generation first.',
    }),
  },
  {
    additionalProperties: false,
    description: 'What the data lacks: for each covered kind and generation, the share of items whose each field is null, empty or missing.',
  },
);

export type CoverageMap = Static<typeof CoverageMap>;
export type KindCoverage = Static<typeof KindCoverage>;
export type GenerationCoverage = Static<typeof GenerationCoverage>;
export type AsOfDisagreement = Static<typeof AsOfDisagreement>;
