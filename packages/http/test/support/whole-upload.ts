import { connect } from 'node:net';

/** What a client that sends its whole request before reading got back. */
export interface WholeUpload {
  /** Whether every byte was handed to the server's kernel (false: the write failed, e.g. EPIPE or a reset). */
  written: boolean;
  /** What the server sent, as latin1 text. */
  received: string;
  /** Whether the server closed the connection. */
  closed: boolean;
}

/**
 * Writes `head` and then all of `body` on a fresh connection without reading anything first (a
 * client without `Expect: 100-continue`), then reads until the server closes, at most `timeoutMs`.
 */
export function uploadWhole(url: string, head: string, body: Buffer, timeoutMs = 20_000): Promise<WholeUpload> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let written = false;
    let received = '';
    let closed = false;
    socket.pause();
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ written, received, closed });
    });
    socket.on('end', () => (closed = true));
    socket.write(head);
    socket.write(body, (error) => {
      written = error === undefined || error === null;
      // Only now does this client read.
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => (received += chunk));
      socket.resume();
    });
  });
}

/** The head of a POST to `url` whose body is `length` bytes of JSON (or chunked, without a length). */
export function postHead(url: string, length: number | 'chunked'): string {
  const { host, pathname } = new URL(url);
  const framing = length === 'chunked' ? 'transfer-encoding: chunked' : `content-length: ${length}`;
  return `POST ${pathname} HTTP/1.1\r\nhost: ${host}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\n${framing}\r\n\r\n`;
}

/** `size` bytes of a JSON-RPC request, sent as one chunk of a chunked body when `chunked`. */
export function bigBody(size: number, chunked = false): Buffer {
  const prefix = '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"';
  const suffix = '"}}';
  const json = Buffer.alloc(size, 'x');
  json.write(prefix, 0, 'latin1');
  json.write(suffix, size - suffix.length, 'latin1');
  return chunked ? Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), json, Buffer.from('\r\n0\r\n\r\n')]) : json;
}
