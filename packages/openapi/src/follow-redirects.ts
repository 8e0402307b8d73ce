import type { BuiltRequest } from './build-request';

/** The redirects one call follows before it ends as an error result, as fetch's own limit. */
export const MAX_REDIRECTS = 20;

/** A redirect not followed: its target is outside the API's origin, or there were too many. */
export class RedirectRefused extends Error {
  constructor(
    readonly location: string,
    why: string,
  ) {
    super(why);
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Sends the request and follows its redirects within the API's origin only: fetch's own
 * `redirect: 'follow'` drops `Authorization` on another origin but carries every other header
 * (an API key header, a cookie made from a key), so an API that redirects elsewhere would hand
 * the credentials to whoever it names. A 303, or a 301/302 to a POST, continues as a GET without
 * a body, as fetch does.
 *
 * @throws RedirectRefused for a redirect to another origin, or past `MAX_REDIRECTS`.
 */
export async function fetchSameOrigin(doFetch: typeof fetch, method: string, request: BuiltRequest, signal: AbortSignal): Promise<Response> {
  let url = request.url;
  let init: RequestInit = { method, headers: request.headers, body: request.body, signal, redirect: 'manual' };
  for (let hop = 0; ; hop += 1) {
    const response = await doFetch(url, init);
    const location = response.headers.get('location');
    if (!REDIRECTS.has(response.status) || location === null) return response;
    await response.body?.cancel().catch(() => undefined);
    const next = new URL(location, url);
    if (next.origin !== request.url.origin) {
      throw new RedirectRefused(next.href, `it redirected to another origin (${next.origin}), which is not followed: the call's credentials stay with the API`);
    }
    if (hop + 1 > MAX_REDIRECTS) throw new RedirectRefused(next.href, `it redirected more than ${MAX_REDIRECTS} times`);
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && init.method === 'POST')) {
      const headers = new Headers(init.headers);
      headers.delete('content-type');
      init = { ...init, method: init.method === 'HEAD' ? 'HEAD' : 'GET', headers, body: undefined };
    }
    url = next;
  }
}
