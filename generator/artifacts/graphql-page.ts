/**
 * The docs page's "Coming from GraphQL": the questions of the upstream's GraphQL example files,
 * each beside the one GET that answers it here. The upstream's users are sent to a rate-limited
 * server for these; the point of the section is that each is a single cacheable request.
 */
import { escapeHtml, tryLink } from './reference.ts';

export interface GraphqlExample {
  /** the upstream's example file (`graphql/v1beta2/examples/…`), named only as a file */
  file: string;
  /** the question it asks, in the upstream's words */
  question: string;
  /** the one request that answers it */
  path: string;
  /** the parameters that make it one request, as the page explains them */
  uses: string;
}

/** The browser test runs some of them by their path. */
export const GRAPHQL_EXAMPLES: readonly GraphqlExample[] = [
  {
    file: 'pokemon_stats.gql',
    question: 'The 3 tallest default creatures (for the heaviest, sort=-weight)',
    path: '/v2/creature/?is_default=true&sort=-height&limit=3&fields=height,weight',
    uses: 'sort descending with a leading -, fields',
  },
  {
    file: 'best_poison_grass_pokemon.gql',
    question: 'The strongest grass and poison creatures by their total base stats',
    path: '/v2/creature/?type=grass&type=poison&sort=-base_stat_total&fields=types,stats',
    uses: 'a filter given twice means both; base_stat_total, the sum of the base stats',
  },
  {
    file: 'weakestPokemonAbleToBeatFireRedAlone.gql',
    question: 'Generation I creatures that learn strength, cut and surf, lowest base experience first, with the species’ English name',
    path: '/v2/creature/?generation=generation-i&move=strength&move=cut&move=surf&sort=base_experience&fields=base_experience,species.names&lang=en',
    uses: 'all of three moves; species.names, a field read through the species link; lang',
  },
  {
    file: 'searchForPokemonInGerman.gql',
    question: 'Species whose German name matches “Ento”',
    path: '/v2/creature-species/?q=ento&lang=de&fields=names',
    uses: 'q in one language with lang',
  },
  {
    file: 'gen3_species.gql',
    question: 'The number of species per generation',
    path: '/v2/creature-species/?facets=generation&limit=1',
    uses: 'facets: a count per value over the whole filtered list',
  },
  {
    file: 'pokemon_stats.gql',
    question: 'The average base happiness',
    path: '/v2/creature-species/?summary=base_happiness&limit=1',
    uses: 'summary: count, min, max, sum and avg of a range',
  },
  {
    file: 'item_translations.gql',
    question: 'Every item with its names (here in German)',
    path: '/v2/item/?fields=names&lang=de&limit=100',
    uses: 'names as a field, in one language; follow next for the rest',
  },
];

function exampleRow(e: GraphqlExample): string {
  return (
    `<tr><th scope="row"><code>${escapeHtml(e.file)}</code><br>${escapeHtml(e.question)}</th>` +
    `<td>${tryLink(e.path)}</td><td>${escapeHtml(e.uses)}</td></tr>`
  );
}

/** The section, each request a link the try box opens and runs. */
export function fromGraphqlSection(examples: readonly GraphqlExample[] = GRAPHQL_EXAMPLES): string {
  return (
    `<section id="from-graphql" aria-labelledby="from-graphql-title"><h2 id="from-graphql-title">Coming from GraphQL</h2>` +
    `<p>The questions of the upstream’s GraphQL example files, each answered here by one <code>GET</code>, ` +
    `cached per URL. Each request opens in the <a href="#try">Try it</a> box.</p>` +
    `<div class="card table-scroll"><table class="fields graphql" id="graphql-examples">` +
    `<thead><tr><th scope="col">The upstream’s example</th><th scope="col">The request</th><th scope="col">What makes it one request</th></tr></thead>` +
    `<tbody>${examples.map(exampleRow).join('')}</tbody></table></div></section>`
  );
}
