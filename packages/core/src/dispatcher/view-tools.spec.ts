import pino from 'pino';
import { AppView } from '../decorators/app-view.decorator';
import { Tool } from '../decorators/tool.decorator';
import { createApp } from '../server/create-app';

const silent = pino({ level: 'silent' });
const UI = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };

class Board {
  @AppView({ uri: 'ui://notes/board' })
  board() {
    return '<!doctype html><title>Board</title>';
  }

  @Tool({ description: 'Shows the board', ui: { view: 'ui://notes/board' } })
  show_board() {
    return 'The board';
  }

  @Tool({ description: 'The notes, for the board', ui: { view: 'ui://notes/board', visibility: ['app'] } })
  board_notes() {
    return '[]';
  }

  @Tool({ description: 'More notes, for the board', ui: { visibility: ['app'] } })
  board_more() {
    return '[]';
  }

  @Tool({ description: 'A plain tool' })
  plain() {
    return 'plain';
  }
}

type Page = { result?: { tools: Array<{ name: string }>; nextCursor?: string }; error?: unknown };

/** Every page of `tools/list` a client of `era` declaring `capabilities` walks through, as tool names. */
async function walk(era: 'legacy' | 'modern', capabilities: Record<string, unknown>): Promise<string[][]> {
  const app = createApp({ name: 't', version: '1', providers: [Board], logger: silent, pageSize: 1 });
  const connection = app.connect({ kind: 'memory' });
  const meta =
    era === 'modern'
      ? {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': capabilities,
            'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
          },
        }
      : {};
  if (era === 'legacy') {
    await connection.receive({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'c', version: '1' } },
    });
  }
  const pages: string[][] = [];
  let cursor: string | undefined;
  do {
    const page = (await connection.receive({
      jsonrpc: '2.0',
      id: pages.length + 1,
      method: 'tools/list',
      params: { ...meta, ...(cursor ? { cursor } : {}) },
    })) as Page;
    pages.push(page.result!.tools.map((tool) => tool.name));
    cursor = page.result!.nextCursor;
  } while (cursor !== undefined && pages.length < 10);
  return pages;
}

describe('tools/list of an app with app-only tools', () => {
  it.each(['legacy', 'modern'] as const)('pages a client without the extension as if the app-only tools did not exist (%s)', async (era) => {
    // Filtered before paging: no empty page, no short page, nothing that tells where a hidden tool sits.
    expect(await walk(era, {})).toEqual([['show_board'], ['plain']]);
  });

  it.each(['legacy', 'modern'] as const)('pages a client with the extension through every tool (%s)', async (era) => {
    expect(await walk(era, UI)).toEqual([['show_board'], ['board_notes'], ['board_more'], ['plain']]);
  });
});
