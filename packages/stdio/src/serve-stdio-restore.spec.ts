import { PassThrough } from 'node:stream';
import pino from 'pino';
import { createApp, Tool } from '@mcpkit/core';
import type { SessionSnapshot } from '@mcpkit/core/transport';
import { serveStdio, type StdioOptions } from './serve-stdio';

class Echo {
  @Tool()
  echo(): string {
    return 'echo';
  }
}

const MODERN = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

function harness(options: StdioOptions) {
  const app = createApp({ name: 'echo', version: '1', providers: [Echo], logger: pino({ level: 'silent' }) });
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const lines: Array<Record<string, unknown>> = [];
  let buffer = '';
  stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let newline = buffer.indexOf('\n'); newline !== -1; newline = buffer.indexOf('\n')) {
      lines.push(JSON.parse(buffer.slice(0, newline)) as Record<string, unknown>);
      buffer = buffer.slice(newline + 1);
    }
  });
  const server = serveStdio(app, { stdin, stdout, exitProcess: false, ...options });
  const until = async (count: number) => {
    for (let i = 0; i < 200 && lines.length < count; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    return lines;
  };
  const send = (message: unknown) => stdin.write(`${JSON.stringify(message)}\n`);
  return { server, lines, until, send };
}

describe('serveStdio: continuing a session', () => {
  const servers: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });

  it('reports snapshots as they change, and a second server continues the session and announces the lists', async () => {
    const snapshots: Array<SessionSnapshot | undefined> = [];
    const first = harness({ announceListChanges: true, onSnapshot: (snapshot) => snapshots.push(snapshot) });
    servers.push(first.server);
    first.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
    expect((await first.until(1))[0]).toMatchObject({ id: 1, result: { capabilities: { tools: { listChanged: true } } } });
    first.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    await first.until(2);
    // tools/list changed nothing: one report, for the handshake.
    expect(snapshots).toEqual([{ client: { protocolVersion: '2025-11-25', capabilities: {} }, announceListChanges: true }]);

    const second = harness({ restore: snapshots[0], announceListChanges: true });
    servers.push(second.server);
    second.send({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
    const lines = await second.until(2);
    expect(lines[0]).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    expect(lines[1]).toMatchObject({ id: 3, result: { tools: [{ name: 'echo' }] } });
  });

  it('reports a listen when it opens and when it is cancelled; the restored listen is not acknowledged again', async () => {
    const snapshots: Array<SessionSnapshot | undefined> = [];
    const first = harness({ announceListChanges: true, onSnapshot: (snapshot) => snapshots.push(snapshot) });
    servers.push(first.server);
    first.send({ jsonrpc: '2.0', id: 'L', method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: MODERN } });
    expect((await first.until(1))[0]).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { toolsListChanged: true } },
    });
    for (let i = 0; i < 100 && snapshots.length < 1; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(snapshots[0]?.listens).toEqual([{ id: 'L', params: { notifications: { toolsListChanged: true }, _meta: MODERN } }]);

    const second = harness({ restore: snapshots[0], announceListChanges: true, onSnapshot: (snapshot) => snapshots.push(snapshot) });
    servers.push(second.server);
    const lines = await second.until(1);
    expect(lines).toEqual([
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'L' } } },
    ]);
    second.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'L' } });
    for (let i = 0; i < 100 && snapshots.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(snapshots[1]).toBeUndefined();
    expect(snapshots).toHaveLength(2);
  });
});
