import { Language } from '../../../schemas/output/world.ts';
import { names } from '../shapes.ts';
import { defineResource } from '../define.ts';

export const language = defineResource({
  kind: 'language',
  schema: Language,
  emit: (lang, ctx) => ({
    id: lang.id,
    name: lang.name,
    official: lang.official,
    iso639: lang.iso639,
    iso3166: lang.iso3166,
    // a language's name in each other language: rows about this language, labelled by the language they are written in
    names: names(ctx, lang.names),
  }),
  query: (q) => ({
    filters: [q.yesNo('official', (l) => l.official)],
    fields: ['id', 'official', 'iso639', 'iso3166'],
  }),
});
