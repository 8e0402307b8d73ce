import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { createApp, Tool, UseFilters, UseGuards, UseInterceptors, type CallTarget, type Guard, type RequestContext } from '@mcpkit/core';
import pino from 'pino';
import { serveHttp, type HttpServer } from '../src';

// Issue #14 over loopback HTTP with the official clients: a guard reading a request header,
// an interceptor, a filter, and a list that differs per request (both eras).
class TenantGuard implements Guard {
  canActivate(ctx: RequestContext, target: CallTarget) {
    const tenant = ctx.transport.headers?.['x-tenant'];
    if (target.name === 'acme_report') return tenant === 'acme' ? true : 'hide';
    return tenant !== undefined;
  }
}

class Reports {
  @Tool()
  status() {
    return 'up';
  }

  @Tool()
  @UseGuards(TenantGuard)
  @UseInterceptors({ intercept: async (ctx, next) => `${String(await next())} for ${String(ctx.transport.headers?.['x-tenant'])}` })
  acme_report() {
    return 'acme numbers';
  }

  @Tool()
  @UseGuards(TenantGuard)
  @UseFilters({
    catch: (error: unknown) => {
      if (error instanceof RangeError) return 'nothing to export yet';
      throw error;
    },
  })
  export_report() {
    throw new RangeError('empty');
  }
}

async function rejection(promise: Promise<unknown>): Promise<McpError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof McpError) return error;
    throw error;
  }
  throw new Error('expected a JSON-RPC error');
}

describe('guards over Streamable HTTP with the official clients', () => {
  let server: HttpServer;

  beforeAll(async () => {
    server = await serveHttp(createApp({ name: 'reports', version: '1', providers: [Reports], logger: pino({ level: 'silent' }) }), { port: 0 });
  });

  afterAll(() => server.close());

  const legacy = async (tenant?: string) => {
    const client = new Client({ name: 'guards-http', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), tenant ? { requestInit: { headers: { 'x-tenant': tenant } } } : {}));
    return client;
  };

  it('lists and calls per tenant on the handshake era; a hidden tool answers like an unknown one', async () => {
    const acme = await legacy('acme');
    const other = await legacy('globex');
    const anonymous = await legacy();
    try {
      expect((await acme.listTools()).tools.map((tool) => tool.name)).toEqual(['status', 'acme_report', 'export_report']);
      expect((await other.listTools()).tools.map((tool) => tool.name)).toEqual(['status', 'export_report']);
      expect((await anonymous.listTools()).tools.map((tool) => tool.name)).toEqual(['status']);
      expect(await acme.callTool({ name: 'acme_report', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'acme numbers for acme' }] });
      const hidden = await rejection(other.callTool({ name: 'acme_report', arguments: {} }));
      expect({ code: hidden.code, message: hidden.message }).toEqual({ code: -32602, message: 'MCP error -32602: Unknown tool: acme_report' });
      expect(await other.callTool({ name: 'export_report', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'nothing to export yet' }] });
      expect((await rejection(anonymous.callTool({ name: 'export_report', arguments: {} }))).data).toEqual({ error: 'forbidden' });
    } finally {
      await Promise.all([acme.close(), other.close(), anonymous.close()]);
    }
  });

  it('sends the per-caller list with cacheScope private on 2026-07-28', async () => {
    const client = new ModernClient({ name: 'guards-modern', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new ModernTransport(new URL(server.url), { requestInit: { headers: { 'x-tenant': 'acme' } } }));
    try {
      const list = (await client.listTools()) as unknown as { tools: Array<{ name: string }>; cacheScope?: string };
      expect(list.tools.map((tool) => tool.name)).toEqual(['status', 'acme_report', 'export_report']);
      expect(list.cacheScope).toBe('private');
    } finally {
      await client.close();
    }
  });
});
