import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';
import { HttpServerProcess } from '@mcpkit/testing';
import { waitFor } from './support/waiting';

// Subscribable notes against the real notes process: the official v1 client on the handshake era
// (resources/subscribe, updates on the session's stream) and the v2 client pinned to 2026-07-28
// (subscriptions/listen), over stdio and Streamable HTTP. Who hears of what is checked by the
// order of what arrives: a notification that should not come would arrive before the last one
// that should, so no test waits for silence.
const MAIN = join(__dirname, '..', 'dist', 'main.js');
const INDEX = 'notes://index';

function idOf(result: unknown): number {
  return (result as { structuredContent: { id: number } }).structuredContent.id;
}

type Target = { name: string; legacy(): Transport; modern(): Transport; shared: boolean };

let dir: string;
let server: HttpServerProcess;
const env = () => ({ ...process.env, LOG_LEVEL: 'warn', NOTES_DB: join(dir, 'notes.db') }) as Record<string, string>;
// Over stdio every client has a process of its own: the writer is the subscriber itself.
const stdio: Target = {
  name: 'stdio',
  shared: false,
  legacy: () => new StdioClientTransport({ command: process.execPath, args: [MAIN, '--stdio'], env: env(), stderr: 'pipe' }) as Transport,
  modern: () => new ModernStdioTransport({ command: process.execPath, args: [MAIN, '--stdio'], env: env(), stderr: 'pipe' }),
};
const http: Target = {
  name: 'Streamable HTTP',
  shared: true,
  legacy: () => new StreamableHTTPClientTransport(new URL(server.url)) as Transport,
  modern: () => new ModernHttpTransport(new URL(server.url)),
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcpkit-notes-subs-'));
  server = await HttpServerProcess.start(process.execPath, [MAIN], { NOTES_DB: join(dir, 'notes.db'), LOG_LEVEL: 'warn' });
});

afterAll(async () => {
  expect(await server.stop()).toEqual({ code: 0, signal: null });
  rmSync(dir, { recursive: true, force: true });
});

describe.each([stdio, http])('notes resource subscriptions over $name', (target) => {
  const open: Array<{ close(): Promise<void> }> = [];

  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close()));
  });

  async function legacyClient(): Promise<{ client: Client; updates: string[] }> {
    const client = new Client({ name: 'notes-subscriber', version: '1.0.0' });
    const updates: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => void updates.push(notification.params.uri));
    await client.connect(target.legacy());
    open.push(client);
    return { client, updates };
  }

  it('handshake era: resources/subscribe hears of the index and the notes subscribed to, and of nothing else', async () => {
    const subscriber = await legacyClient();
    expect(subscriber.client.getServerCapabilities()?.resources).toMatchObject({ subscribe: true });
    const writer = target.shared ? await legacyClient() : subscriber;
    const a = idOf(await writer.client.callTool({ name: 'create_note', arguments: { title: 'Watched', body: 'a' } }));
    const b = idOf(await writer.client.callTool({ name: 'create_note', arguments: { title: 'Unwatched', body: 'b' } }));
    expect(subscriber.updates).toEqual([]);

    await subscriber.client.subscribeResource({ uri: INDEX });
    await subscriber.client.subscribeResource({ uri: `notes://${a}` });
    if (writer !== subscriber) await writer.client.subscribeResource({ uri: `notes://${b}` });
    const c = idOf(await writer.client.callTool({ name: 'create_note', arguments: { title: 'Third', body: 'c' } }));
    await writer.client.callTool({ name: 'update_note', arguments: { id: b, body: 'b, changed' } });
    await writer.client.callTool({ name: 'update_note', arguments: { id: a, body: 'a, changed' } });
    await writer.client.callTool({ name: 'delete_note', arguments: { id: a } });
    // create c, update b: the index only; update a, delete a: the index, then the note.
    const expected = [INDEX, INDEX, INDEX, `notes://${a}`, INDEX, `notes://${a}`];
    await waitFor('the subscriber hears of four changes', () => subscriber.updates.length >= expected.length);
    expect(subscriber.updates).toEqual(expected);

    // Unsubscribed, it hears no more: the next change reaches only the writer's note b.
    await subscriber.client.unsubscribeResource({ uri: INDEX });
    await writer.client.callTool({ name: 'delete_note', arguments: { id: c } });
    if (writer !== subscriber) {
      await writer.client.callTool({ name: 'delete_note', arguments: { id: b } });
      await waitFor('the writer hears of its note', () => writer.updates.length >= 2);
      expect(writer.updates).toEqual([`notes://${b}`, `notes://${b}`]);
    } else {
      await writer.client.subscribeResource({ uri: `notes://${b}` });
      await writer.client.callTool({ name: 'delete_note', arguments: { id: b } });
      await waitFor('the subscriber hears of note b', () => subscriber.updates.length > expected.length);
    }
    expect(subscriber.updates.slice(expected.length)).toEqual(writer === subscriber ? [`notes://${b}`] : []);
  });

  it('2026-07-28: a subscriptions/listen stream hears of the URIs it asked for, each tagged with its subscription', async () => {
    const connect = async () => {
      const client = new ModernClient({ name: 'notes-listener', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      const updates: Array<{ uri: string; _meta?: Record<string, unknown> }> = [];
      client.setNotificationHandler('notifications/resources/updated', (notification) => void updates.push(notification.params as (typeof updates)[number]));
      await client.connect(target.modern());
      open.push(client);
      return { client, updates };
    };
    const listener = await connect();
    const writer = target.shared ? await connect() : listener;
    const a = idOf(await writer.client.callTool({ name: 'create_note', arguments: { title: 'Listened', body: 'a' } }));
    const b = idOf(await writer.client.callTool({ name: 'create_note', arguments: { title: 'Ignored', body: 'b' } }));

    const subscription = await listener.client.listen({ resourceSubscriptions: [INDEX, `notes://${a}`] });
    expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: [INDEX, `notes://${a}`] });
    await writer.client.callTool({ name: 'update_note', arguments: { id: b, title: 'Still ignored' } });
    await writer.client.callTool({ name: 'update_note', arguments: { id: a, title: 'Changed' } });
    await writer.client.callTool({ name: 'delete_note', arguments: { id: a } });
    const expected = [INDEX, INDEX, `notes://${a}`, INDEX, `notes://${a}`];
    await waitFor('the listener hears of three changes', () => listener.updates.length >= expected.length);
    expect(listener.updates.map((update) => update.uri)).toEqual(expected);
    const tags = new Set(listener.updates.map((update) => JSON.stringify(update._meta)));
    expect(tags.size).toBe(1);
    expect(JSON.parse([...tags][0])).toEqual({ 'io.modelcontextprotocol/subscriptionId': expect.any(String) });

    // Closed, that stream hears no more: of the next change only a new listen on the index hears.
    await subscription.close();
    const probe = await listener.client.listen({ resourceSubscriptions: [INDEX] });
    await writer.client.callTool({ name: 'delete_note', arguments: { id: b } });
    await waitFor('the new listen hears of the index', () => listener.updates.length > expected.length);
    await probe.close();
    expect(listener.updates.map((update) => update.uri)).toEqual([...expected, INDEX]);
    if (writer !== listener) expect(writer.updates).toEqual([]);
  });
});
