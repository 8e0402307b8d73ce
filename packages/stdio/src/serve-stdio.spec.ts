import { PassThrough } from 'node:stream';
import pino from 'pino';
import { createApp, MemoryEventBus, Tool } from '@mcpkit/core';
import { IsString } from 'class-validator';
import { serveStdio } from './serve-stdio';

class EchoInput {
  @IsString()
  text: string;
}

class Echo {
  @Tool()
  echo(input: EchoInput) {
    return input.text;
  }
}

function harness(maxMessageBytes?: number, more: { logger?: pino.Logger; maxResponseBytes?: number } = {}) {
  const bus = new MemoryEventBus();
  const app = createApp({ name: 'echo', version: '1', providers: [Echo], logger: more.logger ?? pino({ level: 'silent' }), bus });
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const lines: Array<Record<string, unknown>> = [];
  let buffer = '';
  stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let newline: number;
    while ((newline = buffer.indexOf('\n')) !== -1) {
      lines.push(JSON.parse(buffer.slice(0, newline)) as Record<string, unknown>);
      buffer = buffer.slice(newline + 1);
    }
  });
  const server = serveStdio(app, { stdin, stdout, maxMessageBytes, maxResponseBytes: more.maxResponseBytes, exitProcess: false });
  const until = async (count: number) => {
    for (let i = 0; i < 200 && lines.length < count; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    return lines;
  };
  return { stdin, stdout, server, lines, until, bus };
}

const INIT = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });

describe('serveStdio', () => {
  it('answers requests line by line and resolves closed after EOF and in-flight work', async () => {
    const { stdin, server, until, bus } = harness();
    expect(bus.size).toBe(1);
    stdin.write(INIT + '\n');
    stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } }) + '\n');
    stdin.end();
    await server.closed;
    // The connection let go of the app: nothing of it stays subscribed.
    expect(bus.size).toBe(0);
    const lines = await until(2);
    expect(lines[1]).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'hi' }] } });
  });

  it('answers an oversized line with -32600 and id null, then keeps serving', async () => {
    const { stdin, server, until } = harness(200);
    stdin.write(INIT + '\n');
    stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x'.repeat(500) } } }) + '\n');
    stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }) + '\n');
    const lines = await until(3);
    // Answers go out as they complete, so only their set is fixed, not their order.
    expect(lines).toHaveLength(3);
    expect(lines).toEqual(
      expect.arrayContaining([
        { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Message exceeds the maximum size of 200 bytes' } },
        { jsonrpc: '2.0', id: 2, result: {} },
      ]),
    );
    await server.close();
  });

  it('pauses input while the output is not drained', async () => {
    const { stdin, stdout, server } = harness();
    stdout.pause();
    // A tiny high-water mark is not configurable on PassThrough after creation; fill it instead.
    stdin.write(INIT + '\n');
    const big = 'y'.repeat(64 * 1024);
    for (let i = 0; i < 8; i++)
      stdin.write(JSON.stringify({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'echo', arguments: { text: big } } }) + '\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stdin.isPaused()).toBe(true);
    stdout.resume();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stdin.isPaused()).toBe(false);
    await server.close();
  });
});

describe('serveStdio and an answer over maxResponseBytes', () => {
  it('logs the request line as the error the client gets, not ok, and writes that error', async () => {
    const logged: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void logged.push(JSON.parse(line) as Record<string, unknown>) });
    const { stdin, server, lines } = harness(undefined, { logger, maxResponseBytes: 300 });
    stdin.write(INIT + '\n');
    const call = (id: number, text: string) =>
      JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text } } }) + '\n';
    stdin.write(call(1, 'short'));
    stdin.write(call(2, 'x'.repeat(1_000)));
    stdin.end();
    await server.closed;
    expect(lines.find((line) => line.id === 1)).toMatchObject({ result: { content: [{ type: 'text', text: 'short' }] } });
    expect(lines.find((line) => line.id === 2)).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32603, message: 'The response would exceed 300 bytes' },
    });
    const requestLines = logged.filter((line) => line.method === 'tools/call' && 'outcome' in line);
    expect(requestLines.map((line) => [line.rpcId ?? line.id, line.outcome])).toEqual([
      [1, 'ok'],
      [2, 'error -32603'],
    ]);
    // One error line for the drop, with the request's bindings.
    expect(logged.filter((line) => line.msg === 'dropped an outgoing message: The response would exceed 300 bytes')).toHaveLength(1);
  });
});
