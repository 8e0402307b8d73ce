/** The media ranges of an `Accept` header, lower-cased, parameters dropped. */
function mediaRanges(accept: string | undefined): string[] {
  if (!accept) return [];
  return accept.split(',').map((part) => part.split(';')[0].trim().toLowerCase());
}

function covers(ranges: readonly string[], type: string): boolean {
  const slash = type.indexOf('/');
  const major = type.slice(0, slash);
  return ranges.some((range) => range === type || range === '*/*' || range === `${major}/*`);
}

// A client sends the same Accept header with every POST: the last one's verdict is kept, so
// the header is split and scanned once per client rather than once per request.
let lastAccept: string | undefined;
let lastVerdict = false;

/** POST must accept both answers a server may give: JSON and an SSE stream. */
export function acceptsJsonAndSse(accept: string | undefined): boolean {
  if (accept === lastAccept && accept !== undefined) return lastVerdict;
  const ranges = mediaRanges(accept);
  const verdict = covers(ranges, 'application/json') && covers(ranges, 'text/event-stream');
  lastAccept = accept;
  lastVerdict = verdict;
  return verdict;
}

/** GET opens a stream, so it must accept SSE. */
export function acceptsSse(accept: string | undefined): boolean {
  return covers(mediaRanges(accept), 'text/event-stream');
}

const JSON_CONTENT_TYPE = /^application\/json\s*(;|$)/i;
// As with Accept: a client sends the same Content-Type with every POST.
let lastContentType: string | undefined;
let lastIsJson = false;

/** A JSON-RPC body must say it is JSON (parameters such as `charset` allowed). */
export function isJsonContentType(contentType: string | string[] | undefined): boolean {
  const text = (Array.isArray(contentType) ? contentType[0] : contentType) ?? '';
  if (text === lastContentType) return lastIsJson;
  lastIsJson = JSON_CONTENT_TYPE.test(text);
  lastContentType = text;
  return lastIsJson;
}

/** A body sent compressed (any `Content-Encoding` but `identity`): nothing here inflates it, so it is refused, whichever binding read it. */
export function isCompressed(contentEncoding: string | string[] | undefined): boolean {
  const encoding = (Array.isArray(contentEncoding) ? contentEncoding.join(',') : (contentEncoding ?? '')).trim().toLowerCase();
  return encoding !== '' && encoding !== 'identity';
}
