/**
 * The Netlify edge function: every request (netlify.toml declares it on `/*`) goes to the
 * shared request module, which reads the deploy's static files. See ../edge-adapter.ts.
 */
import type { Context } from '@netlify/edge-functions';
import { createEdgeAdapter } from '../edge-adapter.ts';

const answer = createEdgeAdapter();

export default (request: Request, _context: Context): Promise<Response | undefined> => answer(request);
