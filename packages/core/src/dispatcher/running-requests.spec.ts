import pino from 'pino';
import { createApp } from '../server/create-app';
import { Tool } from '../decorators/tool.decorator';
import type { Connection } from './connection';

// What a transport that exits now abandons: `running()` lists every request whose handler has
// not returned, in the table or cancelled; `endListens()` ends the listens a closed input leaves.

const release: Array<() => void> = [];

class Stubborn {
  // Ignores its signal: returns only when the test says so.
  @Tool({ input: null })
  stubborn(): Promise<string> {
    return new Promise((resolve) => release.push(() => resolve('done')));
  }
}

const MODERN = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const tick = () => new Promise((resolve) => setImmediate(resolve));

async function open(): Promise<Connection> {
  const app = createApp({ name: 'running', version: '1', providers: [Stubborn], logger: pino({ level: 'silent' }) });
  const connection = app.connect({ kind: 'memory' });
  connection.setOutbound(() => undefined);
  await connection.receive({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
  return connection;
}

const call = (connection: Connection, id: number | string) =>
  connection.receive({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'stubborn', arguments: {} } });

afterEach(() => {
  for (const done of release.splice(0)) done();
});

describe('Connection.running', () => {
  it('lists requests in flight, then the ones cancelled by the client or cut short by close until their handlers return', async () => {
    const connection = await open();
    const answers = [call(connection, 1), call(connection, 'two'), call(connection, 3)];
    await tick();
    expect(connection.running()).toEqual([
      { id: 1, method: 'tools/call', cancelled: false },
      { id: 'two', method: 'tools/call', cancelled: false },
      { id: 3, method: 'tools/call', cancelled: false },
    ]);
    await connection.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'two' } });
    expect(connection.running()).toContainEqual({ id: 'two', method: 'tools/call', cancelled: true });
    release[0]();
    await answers[0];
    connection.close();
    expect(connection.running()).toEqual([
      { id: 'two', method: 'tools/call', cancelled: true },
      { id: 3, method: 'tools/call', cancelled: true },
    ]);
    for (const done of release.splice(0)) done();
    await Promise.all(answers);
    expect(connection.running()).toEqual([]);
  });

  it('endListens ends open listens with no answer, and leaves other requests running', async () => {
    const connection = await open();
    const listen = connection.receive({ jsonrpc: '2.0', id: 'L', method: 'subscriptions/listen', params: { notifications: {}, _meta: MODERN } });
    const stuck = call(connection, 5);
    await tick();
    expect(connection.running().map((request) => request.id)).toEqual(['L', 5]);
    connection.endListens();
    await expect(listen).resolves.toBeUndefined();
    expect(connection.running()).toEqual([{ id: 5, method: 'tools/call', cancelled: false }]);
    release[0]();
    await expect(stuck).resolves.toMatchObject({ id: 5, result: { content: [{ text: 'done' }] } });
  });
});
