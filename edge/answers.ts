/** The answers a route decides on besides a file's bytes: JSON bodies, the fixed errors, the 400 of a bad parameter and the 500 of a fault. */
import type { Answer } from './http.ts';
import { badParameterBody, type ParameterError } from './query/parse.ts';
import { jsonBytes } from './query/raw-json.ts';

/** A JSON answer; the value's parts may be JSON bytes already (a field column's entries). */
export const jsonAnswer = (status: number, value: unknown, headers?: Record<string, string>): Answer => ({
  status,
  body: jsonBytes(value),
  ...(headers ? { headers } : {}),
});
export const notFound = (): Answer => jsonAnswer(404, 'Not Found');
/** `{"error":"not_found","detail":…}`: a 404 that says what was not found, where a path names more than one thing. */
export const notFoundBecause = (detail: string): Answer => jsonAnswer(404, { error: 'not_found', detail });
export const methodNotAllowed = (): Answer => jsonAnswer(405, 'Method Not Allowed', { Allow: 'GET, HEAD' });
/** `{"error":"internal"}`: the build is broken or the code failed; edge/http.ts stores it nowhere. */
export const internalError = (): Answer => jsonAnswer(500, { error: 'internal' });
/** `{error, parameter, value, accepts}`: what was wrong and what the parameter takes. */
export const badParameter = (error: ParameterError): Answer => jsonAnswer(400, badParameterBody(error));

