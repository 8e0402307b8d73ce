import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { onClientGone } from '@mcpkit/http';

/** A web-standard handler: what `createFetchHandler` returns, or any other. */
export type Fetch = (request: Request, info?: { remoteAddress?: string }) => Promise<Response>;

/** A running `node:http` server in front of a fetch handler. */
export interface FetchServer {
  readonly url: string;
  close(): Promise<void>;
}

/** The Node request as a web `Request` whose signal aborts when the client goes before its answer is out. */
function toRequest(req: IncomingMessage, res: ServerResponse): Request {
  // Every line as sent, as Bun's or Deno's servers give them: `req.headers` keeps only the first
  // of some repeated headers (Authorization among them).
  const headers = new Headers();
  for (const [name, values] of Object.entries(req.headersDistinct)) for (const value of values ?? []) headers.append(name, value);
  const aborted = new AbortController();
  onClientGone(req, res, () => aborted.abort());
  // Like Node itself: no length and no chunks means no body.
  const hasBody =
    req.method !== 'GET' && req.method !== 'HEAD' && (req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0');
  return new Request(new URL(req.url ?? '/', 'http://localhost'), {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    signal: aborted.signal,
    duplex: 'half',
  } as RequestInit);
}

/** Writes a web `Response`: a stream chunk by chunk, waiting for the socket to drain, cancelled when the client goes. */
async function writeResponse(response: Response, req: IncomingMessage, res: ServerResponse): Promise<void> {
  res.statusCode = response.status;
  // Answered before its body was read (413): the connection cannot carry another request.
  if (!req.complete) res.shouldKeepAlive = false;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  if (response.body === null) {
    res.end();
    return;
  }
  // An SSE answer, and a refusal whose body stays open while the request's rest is read (it
  // closes the connection after), go out as they come; any other body is complete at once.
  const streamed = (response.headers.get('content-type') ?? '').startsWith('text/event-stream') || response.headers.get('connection') === 'close';
  if (!streamed) {
    res.end(Buffer.from(await response.arrayBuffer()));
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  const cancel = (): void => void reader.cancel().catch(() => undefined);
  res.once('close', cancel);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
      if (res.destroyed) return;
    }
    res.end();
  } catch {
    // The handler dropped the stream (a reader that does not read): so does the connection.
    res.destroy();
  } finally {
    res.off('close', cancel);
  }
}

/**
 * Serves a fetch handler on `node:http`: what Hono's, Bun's or Deno's servers do, in a few
 * lines, so the testbed can run the same surface through the web-standard binding.
 */
export async function serveFetch(fetch: Fetch, host: string, port: number): Promise<FetchServer> {
  const server = createServer((req, res) => {
    void fetch(toRequest(req, res), { remoteAddress: req.socket.remoteAddress })
      .then((response) => writeResponse(response, req, res))
      .catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      });
  });
  server.listen(port, host);
  await once(server, 'listening');
  const bound = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    url: `http://${urlHost}:${bound}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
