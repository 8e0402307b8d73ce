import type { AddressInfo } from 'node:net';
import type { McpApp } from '@mcpkit/core';
import { MessageChannel, readBody } from '@mcpkit/core/transport';
import { WebSocketServer, type WebSocket } from 'ws';

/** Options of `serveWebSocket`. */
export interface WebSocketOptions {
  port?: number;
  host?: string;
  /** Largest message a client may send, in bytes (default 4 MiB); a bigger one is answered -32600. */
  maxMessageBytes?: number;
}

/** What the peer may hold unread before the channel stops reading its messages. */
const HIGH_WATER_BYTES = 1024 * 1024;

/**
 * MCP over WebSocket (one JSON-RPC message per text frame, subprotocol `mcp`), written against
 * `@mcpkit/core/transport` only: each socket is one connection (a channel of the app's
 * dispatcher), each frame is read once and served by `app.dispatcher.handle`, and a
 * `MessageChannel` does the rest (size limit, one write per tick, backpressure, pacing,
 * in-flight tracking).
 */
export async function serveWebSocket(app: McpApp, options: WebSocketOptions = {}): Promise<{ url: string; close(): Promise<void> }> {
  const maxMessageBytes = options.maxMessageBytes ?? 4 * 1024 * 1024;
  // ws refuses (closes with 1009) only what is far past the limit; the channel answers the rest.
  const server = new WebSocketServer({ port: options.port ?? 0, host: options.host ?? '127.0.0.1', maxPayload: 4 * maxMessageBytes });
  server.on('connection', (socket) => serveSocket(app, socket, maxMessageBytes));
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://${options.host ?? '127.0.0.1'}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.close(1001, 'server shutting down');
        server.close(() => resolve());
      }),
  };
}

function serveSocket(app: McpApp, socket: WebSocket, maxMessageBytes: number): void {
  const connection = app.connect({ kind: 'websocket' });
  let resume: (() => void) | undefined;
  const channel = new MessageChannel({
    dispatch: (text, send) => {
      const read = readBody(text);
      return read.ok ? app.dispatcher.handle(read.body, connection, { send }) : Promise.resolve(read.response);
    },
    write: (texts) => {
      for (const text of texts) socket.send(text, afterSend);
      return socket.bufferedAmount < HIGH_WATER_BYTES;
    },
    drained: (next) => (resume = next),
    pauseInput: () => socket.pause(),
    resumeInput: () => socket.resume(),
    limits: { maxMessageBytes: 64 * 1024 * 1024, maxBatchBytes: 64 * 1024 * 1024 },
    maxMessageBytes,
    logger: app.logger,
  });
  // ws has no 'drain' event: each send's callback is when it left, so the last one tells.
  function afterSend(): void {
    if (resume === undefined || socket.bufferedAmount >= HIGH_WATER_BYTES) return;
    const next = resume;
    resume = undefined;
    next();
  }
  connection.setOutbound((message) => channel.send(message));
  socket.on('message', (data, isBinary) => {
    if (isBinary) socket.close(1003, 'MCP messages are text frames');
    else channel.receive(data.toString());
  });
  socket.on('close', () => {
    channel.close();
    connection.close();
  });
}
