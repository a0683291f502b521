/**
 * The Netlify edge function: the API's requests (netlify.toml declares it on /v2 and /v2/*) go
 * to the shared request module, which reads the deploy's static files. See ../edge-adapter.ts.
 */
import type { Config, Context } from '@netlify/edge-functions';
import { createEdgeAdapter } from '../edge-adapter.ts';

const answer = createEdgeAdapter();

export default (request: Request, _context: Context): Promise<Response> => answer(request);

/**
 * Should the function throw or time out, the request goes on down Netlify's chain as if it were
 * not declared: the rules in netlify.toml give the right answer or a JSON 404, never a wrong
 * page. (Paths and caching are declared in netlify.toml; this setting is documented inline.)
 */
export const config: Config = { onError: 'bypass' };
