import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { HttpServerProcess, RawStdioClient } from '@mcpkit/testing';

// Shutdown of real server processes in the default configuration (no LOG_LEVEL: one info line
// per request, buffered): how they end (the shutdown's log line), with which code, and that the
// log is complete. No clock is read: where the grace period must not be reached it is a minute
// long, where it must be it is short, and the log line says which way the process went.
const TESTBED = join(__dirname, '..', '..', '..', 'apps', 'testbed', 'dist', 'main.js');
const GRACE_SERVER = join(__dirname, 'fixtures', 'grace-server.js');
const DEFAULT_ENV: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: undefined };
const INIT = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'shutdown-test', version: '0' } };
/** A grace period the test must never reach: the process ending by it would say `grace expired`. */
const NEVER_MS = '60000';

function records(stderr: string): Array<Record<string, unknown>> {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The requests a log says were abandoned at shutdown. */
function abandoned(stderr: string): Array<{ rpcId: unknown; method: unknown; cancelled: unknown }> {
  return records(stderr)
    .filter((record) => record.msg === 'request abandoned at shutdown: its handler had not returned')
    .map(({ rpcId, method, cancelled }) => ({ rpcId, method, cancelled }));
}

/** The shutdown lines of a log (there is one): how it began and ended, what it waited for and abandoned. */
function shutdowns(stderr: string): Array<{ trigger: unknown; ended: unknown; pending: unknown; abandoned: unknown }> {
  return records(stderr)
    .filter((record) => record.msg === 'shutdown')
    .map(({ trigger, ended, pending, abandoned: count }) => ({ trigger, ended, pending, abandoned: count }));
}

/** The ids of the request lines in a log. */
function loggedIds(stderr: string): Set<unknown> {
  return new Set(
    records(stderr)
      .filter((record) => record.msg === 'request')
      .map((record) => record.rpcId),
  );
}

describe('stdio shutdown', () => {
  const children: ChildProcessWithoutNullStreams[] = [];
  const servers: RawStdioClient[] = [];

  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const server of servers.splice(0)) server.kill();
  });

  /** The grace server with these settings, past its handshake. */
  async function graceServer(env: NodeJS.ProcessEnv): Promise<RawStdioClient> {
    const server = RawStdioClient.spawn(process.execPath, [GRACE_SERVER], { ...DEFAULT_ENV, ...env });
    servers.push(server);
    await server.initialize();
    return server;
  }

  let barriers = 0;
  /**
   * Until the server has read every request sent before now and started its handler: it answers
   * requests in the order it reads them, and a handler starts as its line is read.
   */
  async function inFlight(server: RawStdioClient): Promise<void> {
    const id = `in flight ${++barriers}`;
    server.send({ jsonrpc: '2.0', id, method: 'ping' });
    expect(await server.waitFor((message) => message.id === id)).toMatchObject({ result: {} });
  }

  /** Starts the `stubborn` tool as request `id`. */
  function stubborn(server: RawStdioClient, id: string | number): void {
    server.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'stubborn', arguments: {} } });
  }

  it('answers a request cut short by SIGTERM with -32603 for its id, then exits 0', async () => {
    const server = RawStdioClient.spawn(process.execPath, [TESTBED, 'stdio'], { ...process.env, LOG_LEVEL: 'warn' });
    servers.push(server);
    await server.initialize();
    server.send({ jsonrpc: '2.0', id: 'long', method: 'tools/call', params: { name: 'slow', arguments: { ms: 30_000 } } });
    await inFlight(server);
    server.kill('SIGTERM');
    expect(await server.waitFor((message) => message.id === 'long')).toMatchObject({ error: { code: -32603, message: expect.stringContaining('cut short') } });
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });

  it('exits 0 when the grace period ends on SIGTERM although the client stopped reading, with every answered request in the log', async () => {
    const child = spawn(process.execPath, [TESTBED, 'stdio'], { env: DEFAULT_ENV, stdio: ['pipe', 'pipe', 'pipe'] });
    children.push(child);
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdin.on('error', () => undefined);
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    // Nobody reads stdout: after a pipe's worth of answers, the server's writes stop completing.
    // (A listener collects what arrives once the stream flows again after the exit.)
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stdout.pause();
    let input = `${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: INIT })}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n`;
    for (let id = 1; id <= 20_000; id++) input += `{"jsonrpc":"2.0","id":${id},"method":"tools/list"}\n`;
    child.stdin.write(input);
    // Until the server has logged some work (bounded).
    for (let waited = 0; loggedIds(stderr).size < 50 && waited < 20_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    child.kill('SIGTERM');
    expect(await exited).toEqual({ code: 0, signal: null });
    // It waited for the client until the grace period (the default, 2 s) ended, then exited:
    // no handler was left, only output the client did not take.
    expect(shutdowns(stderr)).toEqual([{ trigger: 'SIGTERM', ended: 'grace expired', pending: expect.any(Number), abandoned: 0 }]);

    // What the client can still read: every complete answer was logged before the exit.
    child.stdout.resume();
    if (!child.stdout.readableEnded) await new Promise((resolve) => child.stdout.once('end', resolve));
    const answered = Buffer.concat(chunks)
      .toString('utf8')
      .split('\n')
      .slice(0, -1) // the last frame may be cut short by the exit
      .map((line) => (JSON.parse(line) as { id: number }).id)
      .filter((id) => id !== 0);
    expect(answered.length).toBeGreaterThan(0);
    const logged = loggedIds(stderr);
    expect(answered.filter((id) => !logged.has(id))).toEqual([]);
    // The log ends with a whole line.
    expect(stderr.endsWith('\n')).toBe(true);
  }, 60_000);

  it.each(['SIGTERM', 'SIGINT'] as const)('exits 0 at once on %s when nothing is pending, with every request in the log', async (signal) => {
    const server = RawStdioClient.spawn(process.execPath, [TESTBED, 'stdio'], DEFAULT_ENV);
    servers.push(server);
    await server.initialize();
    const ids: number[] = [];
    for (let i = 0; i < 300; i++) {
      const answer = await server.request('tools/call', { name: 'echo', arguments: { text: `line ${i}` } });
      ids.push(answer.id as number);
    }
    server.kill(signal);
    expect(await server.exited).toEqual({ code: 0, signal: null });
    // At once: with nothing in flight it only waited for the client to take its output.
    expect(shutdowns(server.stderr)).toEqual([{ trigger: signal, ended: 'idle', pending: 0, abandoned: 0 }]);
    const logged = loggedIds(server.stderr);
    expect(ids.filter((id) => !logged.has(id))).toEqual([]);
    expect(server.stray).toEqual([]);
  });

  it('gives a handler that ignores cancellation shutdownGraceMs, then exits 0', async () => {
    const server = await graceServer({ GRACE_MS: '500', STUBBORN_MS: '20000' });
    stubborn(server, 'stuck');
    await inFlight(server);
    server.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    // The handler was cancelled, did not return, and the grace period ended the process.
    expect(shutdowns(server.stderr)).toEqual([{ trigger: 'SIGTERM', ended: 'grace expired', pending: 1, abandoned: 1 }]);
    // Cancelled requests get no answer; the log says which one was abandoned.
    expect(server.messages.some((message) => message.id === 'stuck')).toBe(false);
    expect(abandoned(server.stderr)).toEqual([{ rpcId: 'stuck', method: 'tools/call', cancelled: true }]);
  });

  it('on stdin EOF, lets requests in flight finish within shutdownGraceMs, then exits 0 and logs each one it abandons', async () => {
    const server = await graceServer({ GRACE_MS: '600', STUBBORN_MS: '20000' });
    stubborn(server, 'stuck');
    await inFlight(server);
    expect(await server.end()).toEqual({ code: 0, signal: null });
    expect(shutdowns(server.stderr)).toEqual([{ trigger: 'end of input', ended: 'grace expired', pending: 1, abandoned: 1 }]);
    expect(server.messages.some((message) => message.id === 'stuck')).toBe(false);
    expect(abandoned(server.stderr)).toEqual([{ rpcId: 'stuck', method: 'tools/call', cancelled: false }]);
  });

  it('on stdin EOF, answers a request that finishes within the grace period and abandons nothing', async () => {
    const server = await graceServer({ GRACE_MS: NEVER_MS, STUBBORN_MS: '300' });
    stubborn(server, 'late');
    expect(await server.end()).toEqual({ code: 0, signal: null });
    // It exited as the request returned, not by the (minute-long) grace period.
    expect(shutdowns(server.stderr)).toEqual([{ trigger: 'end of input', ended: 'drained', pending: 1, abandoned: 0 }]);
    expect(server.messages.find((message) => message.id === 'late')).toMatchObject({ result: { content: [{ text: 'done after 300' }] } });
    expect(abandoned(server.stderr)).toEqual([]);
  });

  it('logs at most 20 abandoned requests, then how many more', async () => {
    const server = await graceServer({ LOG_LEVEL: 'warn', GRACE_MS: '300', STUBBORN_MS: '20000' });
    for (let id = 1; id <= 250; id++) stubborn(server, id);
    await inFlight(server);
    server.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(abandoned(server.stderr)).toEqual(Array.from({ length: 20 }, (_, index) => ({ rpcId: index + 1, method: 'tools/call', cancelled: true })));
    expect(records(server.stderr).filter((record) => record.more !== undefined)).toEqual([
      expect.objectContaining({ level: 40, more: 230, abandoned: 250, msg: '230 more requests abandoned at shutdown' }),
    ]);
    // The shutdown's line is a warning too (so it shows at LOG_LEVEL=warn) and counts them all.
    expect(records(server.stderr).filter((record) => record.msg === 'shutdown')).toEqual([
      expect.objectContaining({ level: 40, trigger: 'SIGTERM', ended: 'grace expired', pending: 250, abandoned: 250 }),
    ]);
  });

  it('ends an open subscriptions/listen with stdin and exits at once, abandoning nothing', async () => {
    const server = RawStdioClient.spawn(process.execPath, [GRACE_SERVER], { ...DEFAULT_ENV, GRACE_MS: NEVER_MS });
    servers.push(server);
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    server.send({ jsonrpc: '2.0', id: 'L', method: 'subscriptions/listen', params: { notifications: {}, _meta: meta } });
    await server.waitFor((message) => message.method === 'notifications/subscriptions/acknowledged');
    expect(await server.end()).toEqual({ code: 0, signal: null });
    // The listen ended with the input, so nothing held the shutdown to its grace period.
    expect(shutdowns(server.stderr)).toEqual([{ trigger: 'end of input', ended: 'drained', pending: 1, abandoned: 0 }]);
    expect(abandoned(server.stderr)).toEqual([]);
  });

  it('ends at once on a second signal during the grace period', async () => {
    const server = await graceServer({ GRACE_MS: NEVER_MS, STUBBORN_MS: '20000' });
    stubborn(server, 'stuck');
    await inFlight(server);
    server.kill('SIGTERM');
    // The first signal cancelled the handler (which carries on): the server is in its grace period.
    for (let waited = 0; !server.stderr.includes('"stubborn cancelled"') && waited < 20_000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.stderr).toContain('"stubborn cancelled"');
    expect(server.child.exitCode).toBeNull();
    server.kill('SIGTERM');
    // Ended by the signal itself, not by the (minute-long) grace period, which exits 0.
    expect(await server.exited).toEqual({ code: null, signal: 'SIGTERM' });
    expect(shutdowns(server.stderr)).toEqual([{ trigger: 'SIGTERM', ended: 'second signal', pending: 1, abandoned: 1 }]);
    expect(abandoned(server.stderr)).toEqual([{ rpcId: 'stuck', method: 'tools/call', cancelled: true }]);
  });

  it('waits for a cancelled handler that returns within the grace period, not for the whole period', async () => {
    const server = await graceServer({ GRACE_MS: NEVER_MS, STUBBORN_MS: '20000', RETURN_AFTER_CANCEL_MS: '300' });
    stubborn(server, 'late');
    await inFlight(server);
    server.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    // It exited as the handler returned, not by the (minute-long) grace period.
    expect(shutdowns(server.stderr)).toEqual([{ trigger: 'SIGTERM', ended: 'drained', pending: 1, abandoned: 0 }]);
    // Its line says how it ended.
    expect(records(server.stderr).find((record) => record.rpcId === 'late' && record.msg === 'request')).toMatchObject({
      msg: 'request',
      outcome: 'cancelled',
    });
  });
});

describe('HTTP shutdown', () => {
  let server: HttpServerProcess | undefined;

  afterEach(async () => {
    await server?.stop(1_000);
    server = undefined;
  });

  async function post(
    url: string,
    body: unknown,
    session?: string,
  ): Promise<{ status: number; session: string | null; json: Record<string, unknown> | undefined }> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    };
    if (session) headers['mcp-session-id'] = session;
    const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, session: response.headers.get('mcp-session-id'), json: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
  }

  it('writes every request line on SIGTERM and exits 0', async () => {
    server = await HttpServerProcess.start(process.execPath, [TESTBED, 'http'], { LOG_LEVEL: undefined });
    const init = await post(server.url, { jsonrpc: '2.0', id: 0, method: 'initialize', params: INIT });
    const session = init.session!;
    expect(session).toBeTruthy();
    await post(server.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session);
    for (let id = 1; id <= 100; id++) {
      const answer = await post(server.url, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text: `http ${id}` } } }, session);
      expect(answer.json).toMatchObject({ id, result: { content: [{ text: `http ${id}` }] } });
    }
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    const logged = loggedIds(server.output);
    expect(Array.from({ length: 100 }, (_, i) => i + 1).filter((id) => !logged.has(id))).toEqual([]);
  });
});
