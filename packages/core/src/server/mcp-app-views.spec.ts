import pino from 'pino';
import { AppView } from '../decorators/app-view.decorator';
import { Tool } from '../decorators/tool.decorator';
import { DefinitionError } from '../errors/definition-error';
import { createApp } from './create-app';
import type { McpApp } from './mcp-app';

const silent = pino({ level: 'silent' });
const UI = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };

class Plain {
  @Tool({ description: 'A plain tool' })
  plain() {
    return 'plain';
  }
}

class Board {
  @AppView({ uri: 'ui://notes/board' })
  board() {
    return '<!doctype html><title>Board</title>';
  }

  @Tool({ description: 'Shows the board', ui: { view: 'ui://notes/board' } })
  show_board() {
    return 'The board';
  }
}

type Answer = { result?: Record<string, unknown>; error?: { code: number } };

/** One request of a client of `era` declaring the extension, on a fresh memory connection. */
async function ask(app: McpApp, era: 'legacy' | 'modern', method: string, params: Record<string, unknown> = {}): Promise<Answer> {
  const connection = app.connect({ kind: 'memory' });
  if (era === 'legacy') {
    await connection.receive({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: UI, clientInfo: { name: 'c', version: '1' } },
    });
    return (await connection.receive({ jsonrpc: '2.0', id: 1, method, params })) as Answer;
  }
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': UI,
    'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
  };
  return (await connection.receive({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta } })) as Answer;
}

describe('a dynamic app with views', () => {
  it.each(['legacy', 'modern'] as const)('refuses to remove or disable a view a tool still names, and keeps serving it (%s)', async (era) => {
    const app = createApp({ name: 't', version: '1', providers: [Board], logger: silent, dynamic: true });
    expect(() => app.remove('resource', 'ui://notes/board')).toThrow(DefinitionError);
    expect(() => app.disable('resource', 'ui://notes/board')).toThrow(/show_board.*ui:\/\/notes\/board/);
    const read = await ask(app, era, 'resources/read', { uri: 'ui://notes/board' });
    expect(read.result!.contents).toEqual([expect.objectContaining({ uri: 'ui://notes/board', mimeType: 'text/html;profile=mcp-app' })]);
    const list = await ask(app, era, 'tools/list');
    expect(list.result!.tools).toEqual([
      expect.objectContaining({ name: 'show_board', _meta: expect.objectContaining({ ui: { resourceUri: 'ui://notes/board' } }) }),
    ]);
  });

  it.each(['legacy', 'modern'] as const)('removes a view once no tool names it (%s)', async (era) => {
    const app = createApp({ name: 't', version: '1', providers: [Board], logger: silent, dynamic: true });
    expect(app.disable('tool', 'show_board')).toBe(true);
    expect(app.remove('resource', 'ui://notes/board')).toBe(true);
    // The disabled tool still names it: enabling the tool again would link it to nothing.
    expect(() => app.enable('tool', 'show_board')).toThrow(DefinitionError);
    // Not found: -32002 up to 2025-11-25, -32602 from 2026-07-28.
    expect((await ask(app, era, 'resources/read', { uri: 'ui://notes/board' })).error!.code).toBe(era === 'legacy' ? -32002 : -32602);
    expect((await ask(app, era, 'tools/list')).result!.tools).toEqual([]);
  });

  it.each(['legacy', 'modern'] as const)('refuses views added to an app that declared no MCP Apps at start-up (%s)', async (era) => {
    const app = createApp({ name: 't', version: '1', providers: [Plain], logger: silent, dynamic: true });
    expect(() => app.addProviders([Board])).toThrow(/did not declare MCP Apps/);
    expect(app.capabilities.extensions).toBeUndefined();
    expect((await ask(app, era, 'tools/list')).result!.tools).toEqual([expect.objectContaining({ name: 'plain' })]);
    expect((await ask(app, era, 'tools/call', { name: 'show_board', arguments: {} })).error!.code).toBe(-32602);
  });
});
