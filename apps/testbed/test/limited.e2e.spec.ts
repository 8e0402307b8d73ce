import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client';
import { HttpServerProcess } from '@mcpkit/testing';
import { text } from './support';

// `limited` (issue #14): 5 calls per 10 s per caller; the 6th answers the rate-limit isError result.
const MAIN = join(__dirname, '..', 'dist', 'main.js');
const ENV = { ...process.env, LOG_LEVEL: 'warn' } as Record<string, string>;

type Call = () => Promise<{ isError?: boolean; content?: unknown; _meta?: Record<string, unknown> }>;

async function sixCalls(call: Call): Promise<Array<Awaited<ReturnType<Call>>>> {
  const results = [];
  for (let i = 0; i < 6; i++) results.push(await call());
  return results;
}

function expectLimitedAfterFive(results: Array<Awaited<ReturnType<Call>>>): void {
  expect(results.slice(0, 5).map((result) => text(result))).toEqual(Array(5).fill('limited:ok'));
  const sixth = results[5];
  expect(sixth.isError).toBe(true);
  expect(text(sixth)).toMatch(/^rate limit: retry in \d+ s$/);
  const wait = (sixth._meta?.['io.mcpkit/rateLimit'] as { retryAfterMs: number }).retryAfterMs;
  expect(wait).toBeGreaterThan(0);
  expect(wait).toBeLessThanOrEqual(2_000);
}

describe('limited over stdio with the official SDK client', () => {
  it('answers limited:ok five times, then the rate-limit result', async () => {
    const client = new Client({ name: 'limited-e2e', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [MAIN, 'stdio'], env: ENV, stderr: 'pipe' }));
    try {
      expectLimitedAfterFive(await sixCalls(() => client.callTool({ name: 'limited', arguments: {} }) as ReturnType<Call>));
    } finally {
      await client.close();
    }
  });
});

describe('limited over Streamable HTTP', () => {
  let server: HttpServerProcess;

  beforeAll(async () => {
    server = await HttpServerProcess.start(process.execPath, [MAIN, 'http'], { LOG_LEVEL: 'info' });
  });

  afterAll(async () => {
    expect(await server.stop()).toEqual({ code: 0, signal: null });
  });

  it('counts anonymous handshake-era callers by session: each session has its own five', async () => {
    const first = new Client({ name: 'limited-a', version: '1.0.0' });
    const second = new Client({ name: 'limited-b', version: '1.0.0' });
    await first.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    await second.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      expectLimitedAfterFive(await sixCalls(() => first.callTool({ name: 'limited', arguments: {} }) as ReturnType<Call>));
      expect(text(await second.callTool({ name: 'limited', arguments: {} }))).toBe('limited:ok');
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('counts anonymous 2026-07-28 callers by client address: a second client from it shares the bucket', async () => {
    const modern = () => new ModernClient({ name: 'limited-modern', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const first = modern();
    const second = modern();
    await first.connect(new ModernHttpTransport(new URL(server.url)));
    await second.connect(new ModernHttpTransport(new URL(server.url)));
    try {
      expect(first.getProtocolEra()).toBe('modern');
      expectLimitedAfterFive(await sixCalls(() => first.callTool({ name: 'limited', arguments: {} }) as unknown as ReturnType<Call>));
      const shared = (await second.callTool({ name: 'limited', arguments: {} })) as unknown as Awaited<ReturnType<Call>>;
      expect(shared.isError).toBe(true);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
