import pino from 'pino';
import { AppView } from '../decorators/app-view.decorator';
import { RequireScopes } from '../decorators/require-scopes.decorator';
import { Tool } from '../decorators/tool.decorator';
import { UseGuards } from '../decorators/use-guards.decorator';
import type { AuthInfo } from '../auth/auth-info';
import type { Provider } from '../scanner/scan-providers';
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

class Always {
  canActivate() {
    return true;
  }
}

/** The same tools behind a scope rule that hides, and a guard: the lists that vary by caller. */
class Ruled extends Board {
  @RequireScopes('notes:read', { whenMissing: 'hide' })
  override board_notes() {
    return '[]';
  }

  @UseGuards(Always)
  override plain() {
    return 'plain';
  }
}

type Page = { result?: { tools: Array<{ name: string }>; nextCursor?: string }; error?: unknown };

/** Every page of `tools/list` a client of `era` declaring `capabilities` walks through, as tool names. */
async function walk(era: 'legacy' | 'modern', capabilities: Record<string, unknown>, providers: Provider[] = [Board], auth?: AuthInfo): Promise<string[][]> {
  const app = createApp({ name: 't', version: '1', providers, logger: silent, pageSize: 1 });
  const connection = app.connect(auth ? { kind: 'memory', auth } : { kind: 'memory' });
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

  it.each(['legacy', 'modern'] as const)('pages the same way a list that varies by caller: scope rules and guards (%s)', async (era) => {
    // Full pages of one, in the app's order (the overrides of a subclass come first).
    const seen = async (capabilities: Record<string, unknown>, auth: AuthInfo) => {
      const pages = await walk(era, capabilities, [Ruled], auth);
      expect(pages.every((page) => page.length === 1)).toBe(true);
      return pages.flat().sort();
    };
    const reader: AuthInfo = { subject: 'r', scopes: ['notes:read'] };
    expect(await seen({}, reader)).toEqual(['plain', 'show_board']);
    expect(await seen(UI, reader)).toEqual(['board_more', 'board_notes', 'plain', 'show_board']);
    expect(await seen(UI, { subject: 'n', scopes: [] })).toEqual(['board_more', 'plain', 'show_board']);
    expect(await seen({}, { subject: 'n', scopes: [] })).toEqual(['plain', 'show_board']);
  });
});
