/**
 * `GET /v2/changes/`: the data versions with a change report (schemas/output/changes.ts),
 * newest first, each with its summary counts. Made by the build (generator/builder/change-reports.ts).
 */
import { Type, type Static } from '@sinclair/typebox';
import { ChangeSummary } from './changes.ts';
import { about } from './common.ts';

const Commit = (description: string) => Type.String({ pattern: '^[0-9a-f]{40}$', description });

export const ChangeList = Type.Object(
  {
    count: Type.Integer({ minimum: 0, description: 'How many data versions have a report.' }),
    results: Type.Array(
      Type.Object(
        {
          from: Commit('The upstream commit of the version before.'),
          to: Commit('The upstream commit of this version.'),
          url: Type.String({ format: 'uri', description: 'URL of the version’s full report, `/changes/{to}/`.' }),
          summary: about(ChangeSummary, 'The version’s items added, removed and changed, summed over kinds.'),
        },
        { additionalProperties: false },
      ),
      { description: 'Newest first: this build’s version, then the one it was made from, and so on.' },
    ),
  },
  { additionalProperties: false, description: 'Every data version with a change report, newest first.' },
);
export type ChangeList = Static<typeof ChangeList>;
