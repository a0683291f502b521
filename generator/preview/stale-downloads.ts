/**
 * While `npm run dev` makes the downloads again after an edit (the build stamp marks them stale:
 * builder/stamp.ts), a download is answered 503 with Retry-After rather than with the previous
 * build's bytes, which no longer match the answers. The answers themselves are already new.
 */
import { errorBody } from '../../contract/error-body.ts';
import { DOWNLOADS_DIR } from '../../contract/layout.ts';
import { contentHash, replyOf, type Step } from '../../edge/http.ts';

const STALE_BODY = new TextEncoder().encode(
  JSON.stringify(
    errorBody('unavailable', 'The downloads are being made again after an edit of the data set; the answers are already new. Ask again in a moment.'),
  ),
);

/** The step that answers `/downloads/…` 503 (the build's stamp said its downloads are stale); the headers every answer carries are edge/http.ts's. */
export const staleDownloads: Step = async (request, next) => {
  if (!new URL(request.url).pathname.startsWith(`/${DOWNLOADS_DIR}/`)) return next(request);
  return replyOf({ status: 503, body: STALE_BODY, headers: { 'retry-after': '1' } }, { etag: await contentHash(STALE_BODY), version: undefined });
};
