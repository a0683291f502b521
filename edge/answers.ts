/**
 * The answers a route decides on besides a file's bytes: JSON bodies, the fixed errors, the 400
 * of a bad parameter and the 500 of a fault. Their error bodies are contract/error-body.ts's.
 */
import { badParameterBody, INTERNAL_BODY, METHOD_NOT_ALLOWED_BODY, notFoundBody, REFUSED_BODIES } from '../contract/error-body.ts';
import type { Answer } from './http.ts';
import type { ParameterError } from '../contract/query/parse.ts';
import { jsonBytes } from '../contract/raw-json.ts';

/** A JSON answer; the value's parts may be JSON bytes already (a field column's entries). */
export const jsonAnswer = (status: number, value: unknown, headers?: Record<string, string>): Answer => ({
  status,
  body: jsonBytes(value),
  ...(headers ? { headers } : {}),
});
/** `"Not Found"`, as the upstream answers: the one error body not in the shape of the others. */
export const notFound = (): Answer => jsonAnswer(404, 'Not Found');
/** `{"error":"not_found","detail":…}`: a 404 that says what was not found, where a path names more than one thing. */
export const notFoundBecause = (detail: string): Answer => jsonAnswer(404, notFoundBody(detail));
export const methodNotAllowed = (): Answer => jsonAnswer(405, METHOD_NOT_ALLOWED_BODY, { Allow: 'GET, HEAD' });
/** `{"error":"internal",…}`: the build is broken or the code failed; edge/http.ts stores it nowhere. */
export const internalError = (): Answer => jsonAnswer(500, INTERNAL_BODY);
/** `{"error":"bad_parameter",…, parameter, value, accepts}`: what was wrong and what the parameter takes. */
export const badParameter = (error: ParameterError): Answer => jsonAnswer(400, badParameterBody(error));
/** A request the preview's HTTP parser refused: 431 for its headers' size, 400 for anything else. */
export const requestRefused = (status: keyof typeof REFUSED_BODIES): Answer => jsonAnswer(status, REFUSED_BODIES[status]);
