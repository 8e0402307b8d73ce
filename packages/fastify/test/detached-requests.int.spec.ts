import { connect, type Socket } from 'node:net';
import pino from 'pino';
import { serveHttp, type HttpServer, type ServeHttpOptions } from '../src';
import { cancelled, fixtureApp, openSession, post } from './fixture-app';

// Review of #26, finding 6: in SSE response mode a request whose client closed the socket after
// its stream opened ran on (its answer may be resumed) until the session expired, bounded only by
// sessions × maxRequestsInFlight. Now it waits detachedRequestTimeoutMs for a reader, and at most
// maxDetachedRequests of all sessions wait; the handler's signal aborts (the fixture's `steps`
// records the ids it saw aborted).
describe('requests whose stream lost its reader (Fastify, loopback, responseMode sse)', () => {
  const sockets: Socket[] = [];
  let server: HttpServer;
  let lines: Array<Record<string, unknown>>;

  async function start(options: ServeHttpOptions, appOptions = {}): Promise<void> {
    lines = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    server = await serveHttp(fixtureApp(logger, appOptions), { port: 0, responseMode: 'sse', ...options });
    cancelled.length = 0;
  }
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await server.close();
  });

  const slow = (id: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'steps', arguments: { steps: 1, delayMs: 600_000 } } });

  /** Sends a slow call as b1-detached-work.mjs does, reads its stream's priming event, and closes the socket: returns that event's id. */
  async function fireAndClose(session: string, id: string): Promise<string> {
    const body = JSON.stringify(slow(id));
    const socket = connect(server.port, '127.0.0.1');
    sockets.push(socket);
    socket.setEncoding('utf8');
    let received = '';
    const primed = new Promise<string>((resolve, reject) => {
      socket.on('data', (chunk: string) => {
        received += chunk;
        const event = /\r\n\r\n[\s\S]*?id: (\S+)\nretry/.exec(received);
        if (event) resolve(event[1]);
      });
      socket.on('error', reject);
    });
    socket.write(
      [
        'POST /mcp HTTP/1.1',
        `Host: 127.0.0.1:${server.port}`,
        'Content-Type: application/json',
        'Accept: application/json, text/event-stream',
        `Mcp-Session-Id: ${session}`,
        'MCP-Protocol-Version: 2025-11-25',
        `Content-Length: ${Buffer.byteLength(body)}`,
        '',
        body,
      ].join('\r\n'),
    );
    const eventId = await primed;
    socket.destroy();
    return eventId;
  }

  async function until(condition: () => boolean): Promise<void> {
    for (let tries = 0; !condition(); tries++) {
      if (tries > 500) throw new Error(`not met; cancelled so far: ${JSON.stringify(cancelled)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  const echo = async (session: string) =>
    (
      await post(
        server.url,
        { jsonrpc: '2.0', id: 'alive', method: 'tools/call', params: { name: 'echo', arguments: { text: 'here' } } },
        { 'mcp-session-id': session },
      )
    ).text();

  it('cancels them after detachedRequestTimeoutMs, and the session serves on (not -32005)', async () => {
    await start({ detachedRequestTimeoutMs: 20 }, { maxRequestsInFlight: 5 });
    const session = await openSession(server.url);
    const ids = ['d1', 'd2', 'd3', 'd4', 'd5'];
    for (const id of ids) await fireAndClose(session, id);
    await until(() => cancelled.length === ids.length);
    expect([...cancelled].sort()).toEqual(ids);
    expect(lines.filter((line) => line.msg === 'cancelled requests whose stream had no reader for detachedRequestTimeoutMs')).toHaveLength(5);
    // Each has its request line, and the session has room again.
    await until(() => lines.filter((line) => line.msg === 'request' && ids.includes(line.rpcId as string)).length === ids.length);
    expect(await echo(session)).toContain('here|session');
  });

  it('keeps at most maxDetachedRequests: the longest detached goes first, and a resumed stream is not detached', async () => {
    await start({ maxDetachedRequests: 2 });
    const [one, two] = [await openSession(server.url), await openSession(server.url)];
    await fireAndClose(one, 'a');
    const resumeFrom = await fireAndClose(two, 'b');
    expect(cancelled).toEqual([]);
    await fireAndClose(one, 'c');
    await until(() => cancelled.length === 1);
    expect(cancelled).toEqual(['a']);

    // b's client comes back: its request no longer waits among the detached.
    const resumed = await fetch(server.url, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': two, 'mcp-protocol-version': '2025-11-25', 'last-event-id': resumeFrom },
    });
    // Its head comes once the stream is attached again.
    expect(resumed.status).toBe(200);
    await fireAndClose(two, 'd');
    await fireAndClose(one, 'e');
    await until(() => cancelled.length === 2);
    expect(cancelled).toEqual(['a', 'c']);
    expect(lines.filter((line) => line.msg === 'cancelled the oldest detached requests over maxDetachedRequests')).toHaveLength(2);
    await resumed.body!.cancel();
    expect(await echo(one)).toContain('here|session');
    expect(await echo(two)).toContain('here|session');
  });
});
