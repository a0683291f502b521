/**
 * The one shape of every error body but the 404's plain `"Not Found"` (the upstream's own body,
 * kept as it is): `{"error": code, "detail": a sentence for a person}`, with the fields a code
 * has always carried at the top level beside them (a 400's `parameter`, `value`, `accepts`), so
 * a client that reads them still does. Every error body the preview, the edge and the request
 * logic send is made here; the contract's `ErrorBody` (schemas/output/common.ts) describes it.
 * A detail never names a file, a path of the server's disk or a stack: a fault's own words go
 * to the log (edge/handler.ts `faultReply`), never to the client.
 */
import type { ParameterError } from './query/parse.ts';

export interface ErrorBody {
  /** what went wrong, as a code a program compares (`bad_parameter`, `internal`, …) */
  error: string;
  /** what went wrong, in a sentence for a person */
  detail: string;
}

/** An error body: the code, the detail, then the fields the code carries besides. */
export function errorBody<Code extends string, Extra extends object = object>(
  error: Code,
  detail: string,
  extra?: Extra,
): { error: Code; detail: string } & Extra {
  return { error, detail, ...(extra as Extra) };
}

/** A 400 to a query parameter: what was wrong and what the parameter takes. */
export interface BadParameterBody extends ErrorBody, ParameterError {
  error: 'bad_parameter';
}

export function badParameterBody({ parameter, value, accepts }: ParameterError): BadParameterBody {
  // `*` is the whole query string, past its cap (contract/query/parse.ts `checkQueryLength`)
  const detail =
    parameter === '*'
      ? 'The query string is longer than the API reads; accepts says how long it may be.'
      : `The value of the query parameter ${parameter} was not understood; accepts says what it takes.`;
  return errorBody('bad_parameter', detail, { parameter, value, accepts });
}

/** A 404 that says what was not found, where a path names more than one thing (as of a game). */
export const notFoundBody = (detail: string) => errorBody('not_found', detail);

/** A fault of ours (a broken build, a bug): logged, never cached. */
export const INTERNAL_BODY = errorBody('internal', "The server failed to answer this request. The fault is ours, not the request's, and it was logged.");

/** The deploy's own files could not be read just now (the edge): `Retry-After` says when to ask again. */
export const UNAVAILABLE_BODY = errorBody(
  'unavailable',
  "The service cannot read its files just now. The fault is ours, not the request's: try again in a moment.",
);

export const METHOD_NOT_ALLOWED_BODY = errorBody('method_not_allowed', 'This API is read-only: it answers GET and HEAD, as the Allow header says.');

/** The bodies of a request the preview's HTTP parser refused, by status. */
export const REFUSED_BODIES = {
  400: errorBody('bad_request', 'The request could not be read as HTTP.'),
  431: errorBody('header_too_large', "The request's headers are larger than the server reads; send fewer or shorter ones."),
} as const;
