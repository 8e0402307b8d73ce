import { once } from 'node:events';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { answerUnreadBody, createHttpHandler, onClientGone, pipeStream, type HttpResult } from '../src';
import { fixtureApp, ACCEPT_BOTH } from '../../fastify/test/fixture-app';
import { bigBody, postHead, uploadWhole } from './support/whole-upload';

/** The body as text, or undefined once it is over `limit` (the rest is left unread). */
function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      if ((size += chunk.length) <= limit) return void chunks.push(chunk);
      req.off('data', onData);
      req.pause();
      resolve(undefined);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
}

// The binding CONTRIBUTING.md ("A new transport or HTTP framework") asks for, over node:http, as a
// newcomer writes it: guard, read the body up to maxMessageBytes, handle, write the answer or pipe it.
function serveNode(): Server {
  const core = createHttpHandler({ app: fixtureApp(), path: '/mcp' });
  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const send = (result: HttpResult): void => {
      if (!('stream' in result)) return void res.writeHead(result.status, result.headers).end(result.body);
      pipeStream(res, result);
    };
    const refused = core.guard(req.headers);
    if (refused) return send(refused);
    const body = req.method === 'POST' ? await readBody(req, core.options.maxMessageBytes) : '';
    // Past the limit: the 413 now, then the rest of the body read (bounded) before the connection closes.
    if (body === undefined) return answerUnreadBody(req, res, core.fault({ kind: 'body-too-large' }), core.options);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const onClose = (listener: () => void) => onClientGone(req, res, listener);
    const request = { method: req.method!, path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers, onClose };
    send(await core.handle(req.method === 'POST' ? { ...request, body } : request));
  };
  return createServer((req, res) => void serve(req, res));
}

function post(url: string, headers: Record<string, string>, body: string | Buffer): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers, agent: false, timeout: 5_000 }, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (data += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data }));
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 5 s')));
    req.on('error', reject);
    req.end(body);
  });
}

describe('a few lines of node:http over createHttpHandler', () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    server = serveNode().listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('serves the official SDK client', async () => {
    const client = new Client({ name: 'node-binding', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await client.connect(transport);
    try {
      expect(transport.sessionId).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });

  it('gets the same refusals as the shipped bindings without checking type or encoding itself', async () => {
    const init = JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    const json = { 'content-type': 'application/json', accept: ACCEPT_BOTH };
    for (const encoding of ['gzip', 'GZIP', 'identity, gzip', 'br']) {
      const compressed = await post(url, { ...json, 'content-encoding': encoding }, init);
      expect({ encoding, status: compressed.status }).toEqual({ encoding, status: 415 });
      expect(JSON.parse(compressed.body)).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining('compressed body') } });
    }
    expect((await post(url, { 'content-type': 'text/plain', accept: ACCEPT_BOTH }, init)).status).toBe(415);
    expect((await post(url, json, 'x'.repeat(4 * 1024 * 1024 + 1))).status).toBe(413);
    expect((await post(url, { ...json, 'content-encoding': 'identity' }, init)).status).toBe(200);
  });

  it('gives a client that sends a whole oversize body before reading its 413, then closes', async () => {
    for (const chunked of [false, true]) {
      const upload = await uploadWhole(url, postHead(url, chunked ? 'chunked' : 16 * 1024 * 1024), bigBody(16 * 1024 * 1024, chunked));
      expect({ chunked, written: upload.written, closed: upload.closed }).toEqual({ chunked, written: true, closed: true });
      expect(upload.received).toMatch(/^HTTP\/1\.1 413 [^]*\r\nconnection: close\r\n[^]*"message":"Payload Too Large: the limit is 4194304 bytes"\}\}$/);
    }
    const init =
      '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}';
    expect((await post(url, { 'content-type': 'application/json', accept: ACCEPT_BOTH }, init)).status).toBe(200);
  });
});
