/**
 * The Netlify edge function: the API's requests (netlify.toml declares it on /v2 and /v2/*) go
 * to the shared request module, which reads the deploy's static files (../edge-adapter.ts); a
 * byte range of a download (declared on /downloads/* too) is cut out of the static file where the
 * static layer sends it whole (../ranged-static.ts).
 */
import type { Config, Context } from '@netlify/edge-functions';
import { stackWithCauses } from '../../contract/error-text.ts';
import { createEdgeAdapter } from '../edge-adapter.ts';
import { isDownload, rangeOfStatic } from '../ranged-static.ts';

const answer = createEdgeAdapter();

/**
 * A failure is never an answer: the request goes on down Netlify's chain as if the function were
 * not declared, and the rules in netlify.toml give the right answer or a JSON 404, never a wrong
 * page. An exception is caught here (returning nothing hands the request on); what cannot be
 * caught (a crash while loading, the CPU limit) is handed on by `onError: 'bypass'`.
 */
export default async (request: Request, context: Context): Promise<Response | undefined> => {
  try {
    // a download's byte range (netlify.toml declares the function on the downloads for it)
    if (isDownload(request)) return await rangeOfStatic(request, () => context.next());
    return await answer(request);
  } catch (e) {
    console.error(
      `api: handing ${request.method} ${new URL(request.url).pathname} on to the rules: ${e instanceof Error ? e.message : String(e)}\n${stackWithCauses(e)}`,
    );
    return undefined;
  }
};

/** Paths and caching are declared in netlify.toml; onError is read only from here. */
export const config: Config = { onError: 'bypass' };
