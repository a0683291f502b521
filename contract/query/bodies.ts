/**
 * The parts of a list's answer that the query adds, as the request logic writes them and the
 * contract describes them: a value's count in `facets` (edge/query/facets.ts) and a range's
 * numbers in `summary` (edge/query/summary.ts).
 */

/**
 * One value's count, as the answer writes it. The contract's schema (generator/artifacts/
 * query-contract.ts `FacetValueSchema`) must type-check as this same object, and the `.d.ts`
 * declares it from that schema: the words are the schema's.
 */
export interface FacetValue {
  name: string;
  url: string | null;
  count: number;
}

/**
 * One range's numbers as the answer writes them. The contract's schema (generator/artifacts/
 * query-contract.ts `RangeSummarySchema`) must type-check as this same object, and the `.d.ts`
 * declares it from that schema: the words are the schema's.
 */
export interface RangeSummary {
  count: number;
  min: number | null;
  max: number | null;
  sum: number;
  avg: number | null;
}
