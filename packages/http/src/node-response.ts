import type { ServerResponse } from 'node:http';
import type { HttpBodyResult, HttpStreamResult } from './http-result';

/**
 * The headers of a body answer as they go out: `Content-Length` always (`0` without a body,
 * except where HTTP forbids one), a text body without a type as `text/plain`, and a JSON type
 * without a `charset` given `; charset=utf-8`. Fastify writes the same, so every `node:http`
 * binding answers byte for byte alike.
 */
export function bodyHeaders(result: HttpBodyResult, method: string | undefined): Record<string, string> {
  const headers = { ...result.headers };
  const { body, status } = result;
  if (body === undefined) {
    if (status >= 200 && status !== 204 && status !== 304 && method !== 'HEAD') headers['content-length'] = '0';
    return headers;
  }
  const type = headers['content-type'];
  if (type === undefined) headers['content-type'] = 'text/plain; charset=utf-8';
  else if (isJsonWithoutCharset(type)) headers['content-type'] = `${type}; charset=utf-8`;
  headers['content-length'] = String(Buffer.byteLength(body));
  return headers;
}

// The core's JSON types are a handful of constants: the verdict for the last one is kept.
let lastType = '';
let lastVerdict = false;

function isJsonWithoutCharset(type: string): boolean {
  if (type === lastType) return lastVerdict;
  const semicolon = type.indexOf(';');
  const mediaType = (semicolon < 0 ? type : type.slice(0, semicolon)).trim().toLowerCase();
  lastVerdict = mediaType.includes('json') && !/;\s*charset\s*=/i.test(type);
  lastType = type;
  return lastVerdict;
}

/**
 * Writes an SSE answer on a `node:http` response: its head at once (a resumed stream with
 * nothing missed writes nothing yet, and the client must not wait for a keep-alive to see it),
 * then the events as the core sends them. `headers` are the host's own, sent first.
 */
export function pipeStream(res: ServerResponse, result: HttpStreamResult, headers?: Record<string, string>): void {
  res.writeHead(result.status, headers === undefined ? result.headers : { ...headers, ...result.headers });
  res.flushHeaders();
  result.stream.pipe({
    write: (text) => void res.write(text),
    end: () => void res.end(),
    destroy: () => void res.destroy(),
    get bufferedBytes() {
      return res.writableLength;
    },
  });
}
