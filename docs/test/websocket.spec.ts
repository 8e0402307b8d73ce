import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { WebSocketClientTransport } from '@modelcontextprotocol/sdk/client/websocket.js';
import { WebSocket } from 'ws';
import { createTestbedApp } from '../../apps/testbed/src/app';
import { describeBehaviour, type Peer } from '../../apps/testbed/test/behaviour';
import { serveWebSocket } from '../examples/websocket.example';

// docs/examples/websocket.example.ts, a transport written outside core on @mcpkit/core/transport
// alone, held to the behaviour suite stdio passes, and used by the official SDK client.
let server: { url: string; close(): Promise<void> };
beforeAll(async () => {
  // The suite makes the fail tool fail on purpose: its error lines are expected (jest gives each file its own env).
  process.env.LOG_LEVEL = 'silent';
  server = await serveWebSocket(createTestbedApp({ LOG_LEVEL: 'silent' }), { maxMessageBytes: 64 * 1024 });
});
afterAll(() => server.close());

async function websocketPeer(): Promise<Peer> {
  const socket = new WebSocket(server.url, 'mcp');
  const received: Array<Record<string, unknown>> = [];
  socket.on('message', (data) => void received.push(JSON.parse(String(data)) as Record<string, unknown>));
  await new Promise((resolve, reject) => (socket.once('open', resolve), socket.once('error', reject)));
  return {
    received,
    send: (frame) => socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame)),
    close: () => new Promise<void>((resolve) => (socket.once('close', () => resolve()), socket.close())),
  };
}

describeBehaviour('WebSocket (docs example)', websocketPeer);

describe('the WebSocket example', () => {
  it('serves the official SDK client (its WebSocket transport)', async () => {
    // The SDK's transport uses the WHATWG WebSocket, global from Node 22: ws stands in on Node 20.
    const global = globalThis as { WebSocket?: unknown };
    const had = global.WebSocket;
    global.WebSocket ??= WebSocket;
    const client = new Client({ name: 'ws-e2e', version: '1.0.0' });
    try {
      await client.connect(new WebSocketClientTransport(new URL(server.url)));
      expect(client.getServerVersion()).toEqual({ name: 'mcpkit-testbed', version: '0.1.0' });
      const answer = await client.callTool({ name: 'echo', arguments: { text: 'over a socket' } });
      expect(answer.content).toEqual([{ type: 'text', text: 'over a socket' }]);
    } finally {
      await client.close();
      global.WebSocket = had;
    }
  });

  it('answers a message over maxMessageBytes -32600 and keeps the connection', async () => {
    const peer = await websocketPeer();
    try {
      peer.send({ jsonrpc: '2.0', id: 1, method: 'ping', params: { padding: 'x'.repeat(70 * 1024) } });
      peer.send({
        jsonrpc: '2.0',
        id: 2,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      });
      for (let i = 0; i < 500 && peer.received.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(peer.received[0]).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Message exceeds the maximum size of 65536 bytes' } });
      expect(peer.received[1]).toMatchObject({ id: 2, result: { protocolVersion: '2025-11-25' } });
    } finally {
      await peer.close();
    }
  });
});
