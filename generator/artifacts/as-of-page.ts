/**
 * The docs page's table of what an answer as of a game changes, kind by kind: the fields as of
 * `{v}`, the fields left out, and the fields one could take for as of `{v}` that are today's. It
 * is read from the contract's as-of schemas (schemas/output/as-of.ts), so the page says what the
 * OpenAPI document and the `.d.ts` say.
 */
import { AS_OF_MARK } from '../../schemas/output/as-of.ts';
import type { Contract, JsonSchema } from './openapi.ts';
import { escapeHtml, resourceAnchor, shapeAnchor } from './reference.ts';

/** How a today's field's description says so where it matters. */
const TODAY_MARK = /Today’s/;

/** One kind's fields, by what the as-of answer does with them. */
export interface AsOfFields {
  kind: string;
  component: string;
  asOf: string[];
  gone: string[];
  today: string[];
}

const propertiesOf = (schema: JsonSchema | undefined): Record<string, JsonSchema> =>
  (schema !== undefined && typeof schema.properties === 'object' && schema.properties !== null ? schema.properties : {}) as Record<string, JsonSchema>;

/** What each kind's as-of answer does with its fields, from the schemas of today's item and of the as-of one. */
export function asOfFields(contract: Contract, kinds: readonly string[]): AsOfFields[] {
  return kinds.flatMap((kind) => {
    const component = contract.asOf[kind];
    const item = contract.items[kind];
    if (component === undefined || item === undefined) return [];
    const then = propertiesOf(contract.schemas[component]);
    const description = (field: string) => (then[field]?.description as string | undefined) ?? '';
    const fields = Object.keys(then);
    return [
      {
        kind,
        component,
        asOf: fields.filter((f) => description(f).startsWith(AS_OF_MARK)),
        gone: Object.keys(propertiesOf(contract.schemas[item])).filter((f) => !(f in then)),
        today: fields.filter((f) => !description(f).startsWith(AS_OF_MARK) && TODAY_MARK.test(description(f))),
      },
    ];
  });
}

const codes = (names: readonly string[]) => (names.length ? names.map((n) => `<code>${escapeHtml(n)}</code>`).join(', ') : '—');

/** The table, one row per kind answered as of a game, each linking its as-of answer's reference. */
export function asOfFieldsTable(contract: Contract, kinds: readonly string[]): string {
  const rows = asOfFields(contract, kinds).map(
    (k) =>
      `<tr><th scope="row"><a href="#${resourceAnchor(k.kind)}">${escapeHtml(k.kind)}</a></th>` +
      `<td>${codes(k.asOf)}</td><td>${codes(k.gone)}</td><td>${codes(k.today)}, and every other field</td>` +
      `<td><a href="#${shapeAnchor(k.component)}">${escapeHtml(k.component)}</a></td></tr>`,
  );
  if (!rows.length) return '';
  return (
    `<div class="card table-scroll"><table class="fields" id="as-of-fields">` +
    `<caption>What <code>/v2/as-of/{v}/{kind}/{id or name}</code> answers, kind by kind: the fields as they were in <code>{v}</code>, ` +
    `the fields left out, and the fields that stay today’s.</caption>` +
    `<thead><tr><th scope="col">Kind</th><th scope="col">As of <code>{v}</code></th><th scope="col">Left out</th><th scope="col">Today’s</th><th scope="col">Reference</th></tr></thead>` +
    `<tbody>${rows.join('')}</tbody></table></div>`
  );
}
