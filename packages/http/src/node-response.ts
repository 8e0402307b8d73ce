import type { ServerResponse } from 'node:http';
import type { HttpBodyResult, HttpStreamResult } from './http-result';

/**
 * The head of a body answer as it goes out, as `writeHead`'s flat list of names and values:
 * `Content-Length` always (`0` without a body, except where HTTP forbids one), a text body
 * without a type as `text/plain`, and a JSON type without a `charset` given `; charset=utf-8`.
 * Fastify writes the same, in the same order, so every `node:http` binding answers byte for byte
 * alike. A list, not an object: nothing is copied or reshaped per answer.
 */
export function bodyHead(result: HttpBodyResult, method: string | undefined): string[] {
  const { body, status, headers } = result;
  const head: string[] = [];
  let typed = false;
  let length = -1;
  for (const name in headers) {
    let value = headers[name];
    if (name === 'content-type') {
      typed = true;
      if (body !== undefined && isJsonWithoutCharset(value)) value = `${value}; charset=utf-8`;
    } else if (name === 'content-length') length = head.length + 1;
    head.push(name, value);
  }
  let bytes: string | undefined;
  if (body !== undefined) {
    if (!typed) head.push('content-type', 'text/plain; charset=utf-8');
    bytes = String(Buffer.byteLength(body));
  } else if (status >= 200 && status !== 204 && status !== 304 && method !== 'HEAD') bytes = '0';
  if (bytes !== undefined) {
    if (length >= 0) head[length] = bytes;
    else head.push('content-length', bytes);
  }
  return head;
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
