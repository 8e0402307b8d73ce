import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpBodyResult } from './http-result';

/** How long, and how much more of it, a refused body is read before its connection closes. */
export interface DrainOptions {
  /** Bytes read and discarded after the answer (`maxDrainBytes`, default 64 MiB). */
  maxDrainBytes: number;
  /** Longest wait for them, in ms (`drainTimeoutMs`, default 10 000). */
  drainTimeoutMs: number;
}

/**
 * Whether a request still has body bytes to come: it declared a body (a length or chunks) that
 * has not been read to its end. An answer sent now would be refused by a reset if the
 * connection closed at once.
 */
export function hasUnreadBody(req: IncomingMessage): boolean {
  if (req.complete) return false;
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Writes an answer given before the request's body was read (a `413` past `maxMessageBytes`, a `415`,
 * a refused token) on `node:http`, with `Connection: close`, then reads and discards what the
 * client still sends, up to `maxDrainBytes` or `drainTimeoutMs`, and only then ends the response
 * and closes. Closed at once, the connection would hold unread bytes, which makes the kernel
 * reset it: a client that sends its whole body before it reads (no `Expect: 100-continue`) gets
 * a broken pipe instead of the status. Past either bound it closes anyway.
 *
 * @example
 * if (size > core.options.maxMessageBytes) return answerUnreadBody(req, res, core.fault({ kind: 'body-too-large' }) as HttpBodyResult, core.options);
 */
export function answerUnreadBody(
  req: IncomingMessage,
  res: ServerResponse,
  result: HttpBodyResult,
  drain: DrainOptions,
  headers?: Record<string, unknown>,
): void {
  const body = result.body ?? '';
  res.writeHead(result.status, { ...headers, ...result.headers, connection: 'close', 'content-length': String(Buffer.byteLength(body)) });
  // The whole answer goes out now; the response ends once the body is drained.
  res.write(body);
  let left = drain.maxDrainBytes;
  const finish = (): void => {
    clearTimeout(timer);
    req.off('data', onData);
    req.off('end', finish);
    req.off('error', finish);
    res.off('close', finish);
    if (!res.writableEnded) res.end();
  };
  const onData = (chunk: Buffer): void => {
    left -= chunk.length;
    if (left < 0) finish();
  };
  const timer = setTimeout(finish, drain.drainTimeoutMs);
  req.on('data', onData);
  req.once('end', finish);
  req.once('error', finish);
  res.once('close', finish);
  if (req.readableEnded) finish();
  else req.resume();
}
