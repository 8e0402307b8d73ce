import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createApp, defineTool } from '@mcpkit/core';
import { serveHttp, type HttpServer } from '@mcpkit/fastify';
import { LineReader } from '@mcpkit/stdio';
import { proxy, type McpProxy } from '../src';
import { ManualTimers } from './support/manual-timers';

// A gateway with a tool of its own and a proxied remote that fails on purpose (a plain JS child
// over stdio, test/fixtures/faulty-remote.js), served over loopback HTTP and driven by the
// official SDK client. Each case: what the caller sees, that the gateway keeps serving, and that
// the proxy reconnects. Time is the test's: the reconnect timers are run by hand.
const REMOTE = join(__dirname, 'fixtures', 'faulty-remote.js');
const MAX_MESSAGE_BYTES = 100_000;

/** Polls a condition the test cannot await otherwise (a child process starting, a socket closing). */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 10));
}

const textOf = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

describe('a gateway with a local tool and a proxied remote that fails, driven by the official SDK client', () => {
  const timers = new ManualTimers();
  const errors: Error[] = [];
  const state = mkdtempSync(join(tmpdir(), 'proxy-faults-'));
  let mirror: McpProxy;
  let gateway: HttpServer;
  let sdk: Client;
  let listChanged = 0;

  const call = (name: string, args: Record<string, unknown> = {}, options?: Parameters<Client['callTool']>[2]) =>
    sdk.callTool({ name, arguments: args }, undefined, options);
  const stats = async () =>
    JSON.parse(textOf(await call('remote_stats'))) as { generation: number; lists: number; cancelled: number[]; answers: Array<{ code?: number }> };
  /** Runs the reconnect timer until the proxy is connected again. */
  const reconnect = async () => {
    await until(() => mirror.client !== undefined || timers.waiting.length > 0);
    while (mirror.client === undefined) {
      await until(() => timers.waiting.length > 0);
      timers.runNext();
      await until(() => mirror.client !== undefined || timers.waiting.length > 0);
    }
  };
  const stillServing = async () => expect(textOf(await call('local_ping'))).toBe('pong');

  beforeAll(async () => {
    mirror = await proxy(
      {
        command: process.execPath,
        args: [REMOTE],
        env: { ...process.env, REMOTE_STATE: join(state, 'generation'), REMOTE_DEAD_GENERATION: '2' },
        stderr: 'pipe',
      },
      {
        client: { era: 'legacy', timeoutMs: 1_000, maxMessageBytes: MAX_MESSAGE_BYTES },
        reconnectDelayMs: 100,
        maxReconnectDelayMs: 400,
        timers,
        onError: (error) => void errors.push(error),
      },
    );
    const app = createApp({
      name: 'gateway',
      version: '1.0.0',
      providers: [defineTool({ name: 'local_ping', description: 'The gateway’s own tool.' }, () => 'pong')],
      imports: [{ app: mirror.app, prefix: 'remote' }],
    });
    gateway = await serveHttp(app, { host: '127.0.0.1', port: 0 });
    sdk = new Client({ name: 'sdk', version: '1.0.0' });
    await sdk.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
    sdk.setNotificationHandler(ToolListChangedNotificationSchema, () => void (listChanged += 1));
  });

  afterAll(async () => {
    await sdk?.close();
    await gateway?.close();
    await mirror?.close();
    rmSync(state, { recursive: true, force: true });
  });

  it('fails the pending call at once when the remote is killed, serves its own tool meanwhile, reconnects with backoff and lists again', async () => {
    const pending = call('remote_slow');
    // The remote reads its stdin in order: once stats answers, the slow call has reached it.
    expect((await stats()).generation).toBe(1);
    process.kill((mirror.client!.transport as unknown as { pid: number }).pid, 'SIGKILL');
    const failed = await pending;
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toBe('tool slow: the upstream server failed: the connection to the upstream server closed');
    await stillServing();
    expect(textOf(await call('remote_echo'))).toBe('tool echo: the upstream server is not connected (the proxy is reconnecting)');
    // Generation 2 dies at start: the wait doubles; generation 3 answers and offers `fresh`.
    await reconnect();
    expect(timers.waits).toEqual([100, 200]);
    await until(() => listChanged > 0);
    expect((await sdk.listTools()).tools.map((tool) => tool.name)).toContain('remote_fresh');
    expect(textOf(await call('remote_fresh'))).toBe('fresh');
  });

  it("ends a slow call when its caller's timeout cancels it, and the remote is told", async () => {
    const before = (await stats()).cancelled.length;
    await expect(call('remote_slow', {}, { timeout: 200 })).rejects.toThrow(/timed out/i);
    await until(async () => (await stats()).cancelled.length > before);
    await stillServing();
  });

  it("ends a call the remote answers under a wrong id at the proxy's timeout, cancels it remotely and reports the stray answer", async () => {
    const before = (await stats()).cancelled.length;
    const result = await call('remote_wrong_id');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('tool wrong_id: the upstream server failed: the upstream server did not answer in time');
    expect((await stats()).cancelled.length).toBe(before + 1);
    expect(errors.some((error) => /an answer to no request waiting \(id 1\d{5}\)/.test(error.message))).toBe(true);
  });

  it('passes a call through when the remote sends a stray answer first, and reports the stray', async () => {
    expect(textOf(await call('remote_stray'))).toBe('after a stray answer');
    expect(errors.some((error) => error.message.includes('(id 99999)'))).toBe(true);
  });

  it('answers a clear error for a result of the wrong shape, and keeps serving', async () => {
    const result = await call('remote_bad_shape');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('tool bad_shape: the upstream server answered a result of the wrong shape (its content is not a list)');
    await stillServing();
    expect(textOf(await call('remote_echo', { text: 'still here' }))).toBe('still here');
  });

  it('answers a clear error when the remote writes a line that is not JSON, keeps serving and reconnects', async () => {
    const result = await call('remote_garbage');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('tool garbage: the upstream server failed: the upstream server sent something that is not a readable answer');
    await stillServing();
    await reconnect();
    expect(textOf(await call('remote_echo', { text: 'back' }))).toBe('back');
  });

  it('holds no more than maxMessageBytes of an oversized answer, fails the call clearly, and reconnects', async () => {
    let held = 0;
    const push = LineReader.prototype.push;
    const spy = jest.spyOn(LineReader.prototype, 'push').mockImplementation(function (this: LineReader, chunk, emit) {
      push.call(this, chunk, emit);
      held = Math.max(held, (this as unknown as { size: number }).size);
    });
    try {
      const result = await call('remote_oversized', { bytes: 2_000_000 });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe('tool oversized: the upstream server failed: the upstream server sent something that is not a readable answer');
      expect(spy).toHaveBeenCalled();
      expect(held).toBeGreaterThan(0);
      expect(held).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
    } finally {
      spy.mockRestore();
    }
    await stillServing();
    await reconnect();
    expect(textOf(await call('remote_echo', { text: 'back again' }))).toBe('back again');
  });

  it('bounds a storm of progress and list changes: the caller gets a few progress updates, the remote a few re-lists', async () => {
    const before = (await stats()).lists;
    const progress: number[] = [];
    const result = await call('remote_flood', { progress: 2_000, listChanged: 500 }, { onprogress: (update) => void progress.push(update.progress) });
    expect(textOf(result)).toBe('flooded');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.length).toBeLessThanOrEqual(10);
    await mirror.refresh();
    const lists = (await stats()).lists - before;
    expect(lists).toBeGreaterThan(0);
    expect(lists).toBeLessThanOrEqual(3);
    await stillServing();
  });

  it("refuses the remote's sampling request when the caller declared no sampling, ends the call clearly, and keeps serving", async () => {
    const outcome = await call('remote_sample').then(
      (result) => textOf(result),
      (error: Error) => error.message,
    );
    expect(outcome).toMatch(/sampling/);
    const { answers } = await stats();
    expect(answers).toEqual([{ code: -32600 }]);
    await stillServing();
  });
});
