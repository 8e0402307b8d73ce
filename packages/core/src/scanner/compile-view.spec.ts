import { runInNewContext } from 'node:vm';
import pino from 'pino';
import { AppView } from '../decorators/app-view.decorator';
import { Resource } from '../decorators/resource.decorator';
import { Tool } from '../decorators/tool.decorator';
import { defineAppView } from '../define/define-app-view';
import { DefinitionErrorCode } from '../errors/definition-error';
import { createApp } from '../server/create-app';
import type { Provider } from './scan-providers';
import { startupError } from '../../test/memory-app';

const silent = pino({ level: 'silent' });
const UI = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };
const HTML = '<!doctype html><title>Board</title>';

class Board {
  @AppView({
    uri: 'ui://notes/board',
    title: 'Notes board',
    description: 'The notes, a search box and a form',
    csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] },
    permissions: { clipboardWrite: {} },
    domain: 'notes.example.com',
    prefersBorder: true,
  })
  board() {
    return HTML;
  }

  @Tool({ description: 'Shows the board', ui: { view: 'ui://notes/board' } })
  show_board() {
    return 'The board: 2 notes.';
  }

  @Tool({ description: 'The notes, for the board', ui: { view: 'ui://notes/board', visibility: ['app'] } })
  board_notes() {
    return '[]';
  }

  @Tool({ description: 'A plain tool' })
  plain() {
    return 'plain';
  }
}

const BOARD_UI = {
  csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] },
  permissions: { clipboardWrite: {} },
  domain: 'notes.example.com',
  prefersBorder: true,
};

/** The answers to `requests` on one initialized memory connection of a fresh app, for a client of `version` declaring `capabilities`. */
async function answers(
  providers: Provider[],
  capabilities: Record<string, unknown>,
  requests: Array<[string, Record<string, unknown>?]>,
  version = '2025-11-25',
): Promise<Array<{ result?: Record<string, unknown>; error?: { code: number; message: string } }>> {
  const connection = createApp({ name: 't', version: '1', providers, logger: silent }).connect({ kind: 'memory' });
  const init = await connection.receive({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: version, capabilities } });
  const out = [init as { result?: Record<string, unknown> }];
  for (const [index, [method, params]] of requests.entries()) {
    out.push((await connection.receive({ jsonrpc: '2.0', id: index + 1, method, params: params ?? {} })) as { result?: Record<string, unknown> });
  }
  return out;
}

describe('@AppView', () => {
  it('is listed as a resource of the view MIME type with its _meta.ui, and read with it', async () => {
    const [init, list, read] = await answers([Board], UI, [['resources/list'], ['resources/read', { uri: 'ui://notes/board' }]]);
    expect(init.result!.capabilities).toMatchObject({ extensions: { 'io.modelcontextprotocol/ui': {} } });
    expect(list.result).toEqual({
      resources: [
        {
          uri: 'ui://notes/board',
          name: 'board',
          title: 'Notes board',
          description: 'The notes, a search box and a form',
          mimeType: 'text/html;profile=mcp-app',
          _meta: { ui: BOARD_UI },
        },
      ],
    });
    expect(read.result).toEqual({ contents: [{ uri: 'ui://notes/board', mimeType: 'text/html;profile=mcp-app', text: HTML, _meta: { ui: BOARD_UI } }] });
  });

  it('is listed and read the same by a client without the extension', async () => {
    const [, list, read] = await answers([Board], {}, [['resources/list'], ['resources/read', { uri: 'ui://notes/board' }]]);
    expect((list.result!.resources as unknown[])[0]).toMatchObject({ uri: 'ui://notes/board', _meta: { ui: BOARD_UI } });
    expect(read.result).toEqual({ contents: [{ uri: 'ui://notes/board', mimeType: 'text/html;profile=mcp-app', text: HTML, _meta: { ui: BOARD_UI } }] });
  });

  it('sends bytes as a blob, and a returned item’s own _meta.ui fields over the declared ones', async () => {
    class Views {
      @AppView({ uri: 'ui://a', prefersBorder: true, csp: { connectDomains: ['https://a.example'] } })
      a() {
        return Promise.resolve(new TextEncoder().encode('<p>a</p>'));
      }

      @AppView({ uri: 'ui://b', prefersBorder: true })
      b() {
        return { text: '<p>b</p>', _meta: { ui: { prefersBorder: false }, stamp: 1 } };
      }

      @AppView({ uri: 'ui://c' })
      c() {
        return undefined;
      }
    }
    const [, a, b, c] = await answers([Views], UI, [
      ['resources/read', { uri: 'ui://a' }],
      ['resources/read', { uri: 'ui://b' }],
      ['resources/read', { uri: 'ui://c' }],
    ]);
    expect(a.result).toEqual({
      contents: [
        {
          uri: 'ui://a',
          mimeType: 'text/html;profile=mcp-app',
          blob: Buffer.from('<p>a</p>').toString('base64'),
          _meta: { ui: { csp: { connectDomains: ['https://a.example'] }, prefersBorder: true } },
        },
      ],
    });
    expect(b.result).toEqual({
      contents: [{ uri: 'ui://b', mimeType: 'text/html;profile=mcp-app', text: '<p>b</p>', _meta: { ui: { prefersBorder: false }, stamp: 1 } }],
    });
    // undefined: not found, as for any resource.
    expect(c.error).toMatchObject({ code: -32002 });
  });

  it('reads a view whose reader answers with a promise of another realm (fs/promises under a test runner)', async () => {
    class Foreign {
      @AppView({ uri: 'ui://foreign' })
      foreign() {
        return runInNewContext('Promise.resolve(html)', { html: HTML }) as Promise<string>;
      }
    }
    const [, read] = await answers([Foreign], UI, [['resources/read', { uri: 'ui://foreign' }]]);
    expect(read.result).toEqual({ contents: [{ uri: 'ui://foreign', mimeType: 'text/html;profile=mcp-app', text: HTML }] });
  });

  it('omits _meta.ui when the view declares none', async () => {
    class Plain {
      @AppView({ uri: 'ui://plain', name: 'plain' })
      plain() {
        return HTML;
      }
    }
    const [, list, read] = await answers([Plain], UI, [['resources/list'], ['resources/read', { uri: 'ui://plain' }]]);
    expect(list.result).toEqual({ resources: [{ uri: 'ui://plain', name: 'plain', mimeType: 'text/html;profile=mcp-app' }] });
    expect(read.result).toEqual({ contents: [{ uri: 'ui://plain', mimeType: 'text/html;profile=mcp-app', text: HTML }] });
  });

  it('answers an internal error when the reader returns something that is not HTML', async () => {
    class Wrong {
      @AppView({ uri: 'ui://wrong' })
      wrong() {
        return 42;
      }

      @AppView({ uri: 'ui://typed' })
      typed() {
        return { text: '{}', mimeType: 'application/json' };
      }
    }
    const [, wrong, typed] = await answers([Wrong], UI, [
      ['resources/read', { uri: 'ui://wrong' }],
      ['resources/read', { uri: 'ui://typed' }],
    ]);
    expect(wrong.error).toMatchObject({ code: -32603 });
    expect(typed.error).toMatchObject({ code: -32603 });
  });

  it('is what defineAppView declares too', async () => {
    const options = { uri: 'ui://notes/board', name: 'board', title: 'Notes board', prefersBorder: false };
    class Decorated {
      @AppView(options)
      board() {
        return HTML;
      }
    }
    const decorated = await answers([Decorated], UI, [['resources/list'], ['resources/read', { uri: options.uri }]]);
    const defined = await answers([defineAppView(options, () => HTML)], UI, [['resources/list'], ['resources/read', { uri: options.uri }]]);
    expect(defined).toEqual(decorated);
  });

  it.each([
    ['a URI outside ui://', { uri: 'https://example.com/board' }, DefinitionErrorCode.INVALID_URI, "a view's URI starts with ui://"],
    ['a URI with a space', { uri: 'ui://notes/my board' }, DefinitionErrorCode.INVALID_URI, "a view's URI starts with ui://"],
    ['csp that is not lists of origins', { uri: 'ui://a', csp: { connectDomains: 'https://a.example' } }, DefinitionErrorCode.INVALID_OPTIONS, 'csp'],
    [
      'a csp entry that would start another directive',
      { uri: 'ui://a', csp: { connectDomains: ["https://a.example; script-src 'unsafe-eval'"] } },
      DefinitionErrorCode.INVALID_OPTIONS,
      'csp',
    ],
    [
      'csp entries joined in one string',
      { uri: 'ui://a', csp: { resourceDomains: ['https://a.example https://b.example'] } },
      DefinitionErrorCode.INVALID_OPTIONS,
      'csp',
    ],
    ['an empty csp entry', { uri: 'ui://a', csp: { frameDomains: [''] } }, DefinitionErrorCode.INVALID_OPTIONS, 'csp'],
    ['a domain with spaces', { uri: 'ui://a', domain: 'notes example com' }, DefinitionErrorCode.INVALID_OPTIONS, 'domain "notes example com"'],
    ['an unknown csp key', { uri: 'ui://a', csp: { scriptDomains: [] } }, DefinitionErrorCode.INVALID_OPTIONS, 'scriptDomains unknown'],
    ['an unknown permission', { uri: 'ui://a', permissions: { usb: {} } }, DefinitionErrorCode.INVALID_OPTIONS, 'usb unknown'],
    ['a permission that is not {}', { uri: 'ui://a', permissions: { camera: true } }, DefinitionErrorCode.INVALID_OPTIONS, 'permissions'],
    ['a domain that is not a string', { uri: 'ui://a', domain: 7 }, DefinitionErrorCode.INVALID_OPTIONS, 'domain 7'],
    ['prefersBorder that is not a boolean', { uri: 'ui://a', prefersBorder: 'yes' }, DefinitionErrorCode.INVALID_OPTIONS, 'prefersBorder "yes"'],
    ['_meta.ui beside the options', { uri: 'ui://a', _meta: { ui: { prefersBorder: true } } }, DefinitionErrorCode.INVALID_OPTIONS, '_meta.ui'],
  ])('rejects %s at start-up', (_, options, code, says) => {
    class Bad {
      @AppView(options as never)
      view() {
        return HTML;
      }
    }
    const error = startupError([Bad]);
    expect(error.code).toBe(code);
    expect(error.problem).toContain('@AppView on Bad.view');
    expect(error.problem).toContain(says);
  });

  it.each(['2025-11-25', '2026-07-28'])('takes CSP sources as hosts write them: wildcards, ports, schemes (%s)', async (version) => {
    const csp = { connectDomains: ['https://*.example.com', 'wss://live.example.com:8443'], resourceDomains: ['data:', 'blob:', 'cdn.example.com'] };
    class Sources {
      @AppView({ uri: 'ui://a', csp })
      view() {
        return HTML;
      }
    }
    const [, list] = await answers([Sources], UI, [['resources/list']], version);
    expect(list.result!.resources).toEqual([expect.objectContaining({ _meta: { ui: { csp } } })]);
  });

  it('clashes with a resource of the same URI', () => {
    class Twice {
      @Resource({ uri: 'ui://notes/board' })
      resource() {
        return HTML;
      }

      @AppView({ uri: 'ui://notes/board' })
      view() {
        return HTML;
      }
    }
    expect(startupError([Twice]).code).toBe(DefinitionErrorCode.DUPLICATE_NAME);
  });
});

describe('@Tool({ ui })', () => {
  it('publishes _meta.ui (and the flat ui/resourceUri) to a client that declares the extension, app-only tools included', async () => {
    const [, list] = await answers([Board], UI, [['tools/list']]);
    const tools = list.result!.tools as Array<{ name: string; _meta?: unknown }>;
    expect(tools.map((tool) => [tool.name, tool._meta])).toEqual([
      ['show_board', { ui: { resourceUri: 'ui://notes/board' }, 'ui/resourceUri': 'ui://notes/board' }],
      ['board_notes', { ui: { resourceUri: 'ui://notes/board', visibility: ['app'] }, 'ui/resourceUri': 'ui://notes/board' }],
      ['plain', undefined],
    ]);
  });

  it('keeps a tool’s own _meta beside ui', async () => {
    class Meta {
      @AppView({ uri: 'ui://m' })
      m() {
        return HTML;
      }

      @Tool({ _meta: { 'example.com/cost': 1 }, ui: { view: 'ui://m', visibility: ['model'] } })
      priced() {
        return 'x';
      }
    }
    const [, withUi] = await answers([Meta], UI, [['tools/list']]);
    const [, without] = await answers([Meta], {}, [['tools/list']]);
    expect((withUi.result!.tools as Array<{ _meta: unknown }>)[0]._meta).toEqual({
      'example.com/cost': 1,
      ui: { resourceUri: 'ui://m', visibility: ['model'] },
      'ui/resourceUri': 'ui://m',
    });
    expect((without.result!.tools as Array<{ _meta: unknown }>)[0]._meta).toEqual({ 'example.com/cost': 1 });
  });

  it.each([
    ['no extension', {}],
    ['the extension without the view MIME type', { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html'] } } }],
    ['the extension as a non-object', { extensions: { 'io.modelcontextprotocol/ui': true } }],
  ])('reverts to core tools for a client with %s: no _meta.ui, no app-only tool, and that tool is unknown', async (_, capabilities) => {
    const [init, list, shown, hidden, missing] = await answers([Board], capabilities, [
      ['tools/list'],
      ['tools/call', { name: 'show_board', arguments: {} }],
      ['tools/call', { name: 'board_notes', arguments: {} }],
      ['tools/call', { name: 'no_such_tool', arguments: {} }],
    ]);
    // The server still says it speaks the extension: the client did not.
    expect(init.result!.capabilities).toMatchObject({ extensions: { 'io.modelcontextprotocol/ui': {} } });
    expect(list.result!.tools).toEqual([
      { name: 'show_board', description: 'Shows the board', inputSchema: { type: 'object', properties: {} } },
      { name: 'plain', description: 'A plain tool', inputSchema: { type: 'object', properties: {} } },
    ]);
    expect(shown.result).toEqual({ content: [{ type: 'text', text: 'The board: 2 notes.' }] });
    expect(hidden.error).toEqual({ ...missing.error, message: 'Unknown tool: board_notes' });
  });

  it('offers views only from the revision whose tools carry _meta', async () => {
    const [, oldList, oldCall] = await answers([Board], UI, [['tools/list'], ['tools/call', { name: 'board_notes', arguments: {} }]], '2025-03-26');
    expect((oldList.result!.tools as Array<{ name: string }>).map((tool) => tool.name)).toEqual(['show_board', 'plain']);
    expect(oldCall.error).toMatchObject({ code: -32602, message: 'Unknown tool: board_notes' });
    const [, list, call] = await answers([Board], UI, [['tools/list'], ['tools/call', { name: 'board_notes', arguments: {} }]], '2025-06-18');
    expect((list.result!.tools as Array<{ name: string }>).map((tool) => tool.name)).toEqual(['show_board', 'board_notes', 'plain']);
    expect(call.result).toEqual({ content: [{ type: 'text', text: '[]' }] });
  });

  it('leaves an app without views as it was: no extension, lists unchanged', async () => {
    class Plain {
      @Tool()
      plain() {
        return 'plain';
      }
    }
    const [init, list] = await answers([Plain], UI, [['tools/list']]);
    expect(init.result!.capabilities).toEqual({ tools: {} });
    expect(list.result).toEqual({ tools: [{ name: 'plain', inputSchema: { type: 'object', properties: {} } }] });
  });

  it('rejects a tool naming a view the app does not have, or a plain resource', () => {
    class Orphan {
      @Tool({ ui: { view: 'ui://notes/bord' } })
      show() {
        return 'x';
      }
    }
    const orphan = startupError([Orphan, Board]);
    expect(orphan.code).toBe(DefinitionErrorCode.UNKNOWN_VIEW);
    expect(orphan.problem).toBe('Tool "show" of Orphan.show names the view ui://notes/bord, which no @AppView of this app declares.');
    class NotAView {
      @Resource({ uri: 'ui://page', mimeType: 'text/html' })
      page() {
        return HTML;
      }

      @Tool({ ui: { view: 'ui://page' } })
      show() {
        return 'x';
      }
    }
    expect(startupError([NotAView]).problem).toBe(
      'Tool "show" of NotAView.show names the view ui://page, but NotAView.page serves that URI as a plain resource (text/html).',
    );
  });

  it.each([
    ['a view URI outside ui://', { view: 'https://example.com/board' }, DefinitionErrorCode.INVALID_URI],
    ['an empty ui', {}, DefinitionErrorCode.INVALID_OPTIONS],
    ['an unknown ui key', { view: 'ui://notes/board', resourceUri: 'ui://notes/board' }, DefinitionErrorCode.INVALID_OPTIONS],
    ['an empty visibility', { visibility: [] }, DefinitionErrorCode.INVALID_OPTIONS],
    ['an unknown audience', { visibility: ['user'] }, DefinitionErrorCode.INVALID_OPTIONS],
    ['an audience twice', { visibility: ['app', 'app'] }, DefinitionErrorCode.INVALID_OPTIONS],
  ])('rejects %s at start-up', (_, ui, code) => {
    class Bad {
      @Tool({ ui: ui as never })
      bad() {
        return 'x';
      }
    }
    const error = startupError([Bad, Board]);
    expect(error.code).toBe(code);
    expect(error.problem).toContain('@Tool on Bad.bad');
  });

  it('rejects ui beside _meta.ui', () => {
    class Both {
      @Tool({ ui: { visibility: ['app'] }, _meta: { ui: { visibility: ['model'] } } })
      both() {
        return 'x';
      }
    }
    expect(startupError([Both]).problem).toBe('@Tool on Both.both has both ui and _meta.ui.');
  });

  it.each([
    ['_meta.ui', { ui: { resourceUri: 'ui://notes/board', visibility: ['app'] } }],
    ['the flat ui/resourceUri', { 'ui/resourceUri': 'ui://notes/board' }],
  ])('rejects %s written by hand, which would go unenforced (an app-only tool offered to every client)', (_, meta) => {
    class ByHand {
      @Tool({ _meta: meta })
      by_hand() {
        return 'x';
      }
    }
    const error = startupError([ByHand, Board]);
    expect(error.code).toBe(DefinitionErrorCode.INVALID_OPTIONS);
    expect(error.problem).toBe('@Tool on ByHand.by_hand has _meta.ui, which mcpkit does not read or enforce.');
  });
});
