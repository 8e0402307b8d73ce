import { AppView, createApp, DefinitionError, Field, RequireScopes, Tool, type RequestContext } from '@mcpkit/core';
import { IsString } from 'class-validator';
import pino from 'pino';
import { firstText, RpcError, TestClient } from '../src';

// MCP Apps (extension io.modelcontextprotocol/ui) through the test client, on both eras: the
// extension is negotiated from the client's capabilities (initialize, or each request's _meta).

const UI = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };
const HTML = '<!doctype html><html><body><ul id="notes"></ul></body></html>';

class NoteInput {
  @Field({ description: 'Title' })
  @IsString()
  title: string;
}

class Board {
  private readonly titles = ['milk'];

  @AppView({ uri: 'ui://notes/board', title: 'Notes board', csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: true })
  board() {
    return HTML;
  }

  @Tool({ description: 'Shows the notes board', ui: { view: 'ui://notes/board' } })
  show_board() {
    return `Notes: ${this.titles.join(', ')}`;
  }

  @Tool({ description: 'The notes, for the board', input: null, ui: { view: 'ui://notes/board', visibility: ['app'] } })
  board_notes(_input: unknown, ctx: RequestContext) {
    return {
      content: [{ type: 'text' as const, text: this.titles.join('\n') }],
      structuredContent: { titles: [...this.titles], version: ctx.client.protocolVersion },
    };
  }

  @Tool({ description: 'Adds a note' })
  create_note(input: NoteInput) {
    this.titles.push(input.title);
    return `Created ${input.title}`;
  }
}

const logger = pino({ level: 'silent' });
const app = () => createApp({ name: 'board', version: '1.0.0', providers: [Board], logger });

describe.each(['legacy', 'modern'] as const)('MCP Apps on the %s era', (era) => {
  it('declares the extension, lists the view and reads it with _meta.ui', async () => {
    const client = await TestClient.connect(app(), { era, capabilities: UI });
    expect(client.server.capabilities).toMatchObject({ extensions: { 'io.modelcontextprotocol/ui': {} } });
    const ui = { csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: true };
    expect(await client.listResources()).toEqual([
      { uri: 'ui://notes/board', name: 'board', title: 'Notes board', mimeType: 'text/html;profile=mcp-app', _meta: { ui } },
    ]);
    const read = await client.readResource('ui://notes/board');
    expect(read.contents).toEqual([{ uri: 'ui://notes/board', mimeType: 'text/html;profile=mcp-app', text: HTML, _meta: { ui } }]);
  });

  it('links tools to the view for a client that declares the extension; the view calls its app-only tool', async () => {
    const client = await TestClient.connect(app(), { era, capabilities: UI });
    const tools = await client.listTools();
    expect(tools.map((tool) => [tool.name, tool._meta?.ui])).toEqual([
      ['show_board', { resourceUri: 'ui://notes/board' }],
      ['board_notes', { resourceUri: 'ui://notes/board', visibility: ['app'] }],
      ['create_note', undefined],
    ]);
    expect(firstText(await client.callTool('create_note', { title: 'eggs' }))).toBe('Created eggs');
    expect((await client.callTool('board_notes')).structuredContent).toEqual({
      titles: ['milk', 'eggs'],
      version: era === 'modern' ? '2026-07-28' : '2025-11-25',
    });
  });

  it('reverts to core tools without the extension: tools work and answer text, the app-only tool does not exist', async () => {
    const client = await TestClient.connect(app(), { era });
    const tools = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['show_board', 'create_note']);
    expect(tools.every((tool) => tool._meta === undefined)).toBe(true);
    expect(firstText(await client.callTool('show_board'))).toBe('Notes: milk');
    const refused = await client.callTool('board_notes').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RpcError);
    expect(refused).toMatchObject({ code: -32602, message: 'Unknown tool: board_notes' });
    // The view itself stays a readable resource.
    expect(firstText(await client.readResource('ui://notes/board'))).toBe(HTML);
  });
});

describe('MCP Apps on the modern era', () => {
  it('answers the tools list as private: it depends on the client’s extensions', async () => {
    for (const capabilities of [UI, {}]) {
      const client = await TestClient.connect(app(), { era: 'modern', capabilities });
      expect(await client.request('tools/list')).toMatchObject({ cacheScope: 'private' });
    }
  });

  it('negotiates per request: the same session-less server answers both kinds of client', async () => {
    const shared = app();
    const withUi = await TestClient.connect(shared, { era: 'modern', capabilities: UI });
    const without = await TestClient.connect(shared, { era: 'modern' });
    expect((await withUi.listTools()).map((tool) => tool.name)).toContain('board_notes');
    expect((await without.listTools()).map((tool) => tool.name)).not.toContain('board_notes');
  });
});

describe.each(['legacy', 'modern'] as const)('MCP Apps through a mount and search_tools (%s era)', (era) => {
  it('finds an app-only tool for a client with views only, and serves a mounted view under its prefix', async () => {
    const gateway = createApp({
      name: 'g',
      version: '1',
      providers: [],
      imports: [{ app: app(), prefix: 'board' }],
      transforms: [{ searchTools: true }],
      logger,
    });
    const names = async (client: TestClient) =>
      (JSON.parse(firstText(await client.callTool('search_tools', { query: 'notes board' }))) as { tools: Array<{ name: string }> }).tools.map(
        (tool) => tool.name,
      );
    const withUi = await TestClient.connect(gateway, { era, capabilities: UI });
    const without = await TestClient.connect(gateway, { era });
    expect(await names(withUi)).toContain('board_board_notes');
    expect(await names(without)).not.toContain('board_board_notes');
    await expect(without.callTool('board_board_notes')).rejects.toBeInstanceOf(RpcError);
    expect(firstText(await withUi.callTool('board_show_board'))).toMatch(/^Notes: /);
    expect((await withUi.readResource('ui://board/notes/board')).contents[0]).toMatchObject({ text: HTML });
  });
});

describe('MCP Apps and access rules', () => {
  it('runs a view’s access rule on its read, and hides the app-only tool from a caller without scope', async () => {
    class Guarded extends Board {
      @RequireScopes('notes:read')
      override board() {
        return super.board();
      }

      @RequireScopes('notes:read', { whenMissing: 'hide' })
      override board_notes(input: unknown, ctx: RequestContext) {
        return super.board_notes(input, ctx);
      }
    }
    const guarded = createApp({ name: 'board', version: '1.0.0', providers: [Guarded], logger });
    const reader = await TestClient.connect(guarded, { capabilities: UI, auth: { subject: 'ann', scopes: ['notes:read'] } });
    expect(firstText(await reader.readResource('ui://notes/board'))).toBe(HTML);
    // The overrides come first: a subclass's methods are scanned before its base's.
    expect((await reader.listTools()).map((tool) => tool.name)).toEqual(['board_notes', 'show_board', 'create_note']);
    const stranger = await TestClient.connect(guarded, { capabilities: UI, auth: { subject: 'bob', scopes: [] } });
    expect((await stranger.listTools()).map((tool) => tool.name)).toEqual(['show_board', 'create_note']);
    await expect(stranger.readResource('ui://notes/board')).rejects.toBeInstanceOf(RpcError);
  });

  it('fails at start-up for a tool whose view the app does not have', () => {
    class Misnamed {
      @Tool({ ui: { view: 'ui://notes/bord' } })
      show() {
        return 'x';
      }
    }
    expect(() => createApp({ name: 'board', version: '1.0.0', providers: [Board, Misnamed], logger })).toThrow(DefinitionError);
  });
});
