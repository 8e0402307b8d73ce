import { Writable } from 'node:stream';
import { IsOptional, IsString } from 'class-validator';
import pino from 'pino';
import { Complete, createApp, Field, Prompt, RequireRoles, RequireScopes, Resource, ResourceTemplate, Tool, type AuthInfo, type McpApp } from '@mcpkit/core';
import { InvalidTokenError } from '@mcpkit/http';
import { serveHttp, type HttpServer } from '../src';
import { ACCEPT_BOTH, INITIALIZE } from './fixture-app';

// Issue #26 items 3, 7 and 9 over a loopback socket, on both eras: what a caller who may not see
// an item gets is, byte for byte (the name replaced), what a name nothing has gets, whatever else
// the request carries (a task, a missing Mcp-Param-* header, no tasks extension); subscribing
// obeys the read rule; scope names like `constructor` are scopes like any other.

class Region {
  @Field({ header: 'Region' })
  @IsString()
  region: string;
}

class Plan {
  @IsOptional()
  @IsString()
  topic?: string;
}

class Vault {
  @Tool({ input: null })
  status() {
    return 'up';
  }

  // Hidden twins and visible twins: what the visible one answers is what the hidden one must never tell.
  @Tool()
  @RequireRoles('admin')
  purge(input: Region) {
    return `purged ${input.region}`;
  }

  @Tool()
  route(input: Region) {
    return `routed ${input.region}`;
  }

  @Tool({ task: 'required', input: null })
  @RequireRoles('admin')
  audit() {
    return 'audited';
  }

  @Tool({ task: 'required', input: null })
  job() {
    return 'done';
  }

  @Prompt()
  @RequireRoles('admin')
  secret_plan(args: Plan) {
    return `plan ${args.topic ?? ''}`;
  }

  @Complete({ prompt: 'secret_plan', argument: 'topic' })
  topics() {
    return ['heist'];
  }

  @Resource({ uri: 'vault://secret', mimeType: 'text/plain' })
  @RequireRoles('admin')
  secret() {
    return 'the combination';
  }

  @ResourceTemplate({ uriTemplate: 'vault://keys/{id}', mimeType: 'text/plain' })
  @RequireRoles('admin')
  key({ id }: { id: string }) {
    return `key ${id}`;
  }

  @Complete({ resourceTemplate: 'vault://keys/{id}', variable: 'id' })
  keyIds() {
    return ['1'];
  }

  // A hidden resource is absent: a template that matches its URI answers for it, as for any other.
  @Resource({ uri: 'shelf://hidden-book', mimeType: 'text/plain' })
  @RequireRoles('admin')
  hiddenBook() {
    return 'the hidden book';
  }

  @ResourceTemplate({ uriTemplate: 'shelf://{title}', mimeType: 'text/plain' })
  book({ title }: { title: string }) {
    return `a book called ${title}`;
  }

  @Resource({ uri: 'vault://public', mimeType: 'text/plain' })
  lobby() {
    return 'welcome';
  }

  @Resource({ uri: 'vault://scoped', mimeType: 'text/plain' })
  @RequireScopes('vault:read')
  scoped() {
    return 'for readers';
  }
}

const TOKENS = new Map<string, AuthInfo>([
  ['admin', { subject: 'root', scopes: ['vault:read'], claims: { roles: ['admin'] } }],
  ['user', { subject: 'ann', scopes: [] }],
  // Item 9: scopes named like what every object inherits, and one that implies vault:read.
  ['ctor', { subject: 'cy', scopes: ['constructor'] }],
  ['tostring', { subject: 'cy', scopes: ['toString', 'hasOwnProperty'] }],
  ['proto', { subject: 'cy', scopes: ['__proto__'] }],
  ['ctor-keeper', { subject: 'cy', scopes: ['constructor', 'vault:keeper'] }],
]);

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

type Answer = { status: number; body: string; challenge: string | null };
type Body = { jsonrpc: '2.0'; id: number; method: string; params: Record<string, unknown> };

/** One caller on one era: a session of its own on the handshake era, its token on each request. */
interface Caller {
  send(body: Body, options?: { headers?: Record<string, string>; tasks?: boolean }): Promise<Response>;
  /** The session's GET stream (handshake era). */
  stream?(): Promise<Response>;
}

interface Era {
  name: string;
  modern: boolean;
  open(token: string): Promise<Caller>;
}

let server: HttpServer;
let app: McpApp;
const logged: Array<{ level: number; msg?: string }> = [];

function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

const handshake: Era = {
  name: 'the handshake era (2025-11-25, a session)',
  modern: false,
  async open(token) {
    const opened = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...bearer(token) },
      body: JSON.stringify(INITIALIZE),
    });
    const session = opened.headers.get('mcp-session-id')!;
    await opened.text();
    const headers = {
      'content-type': 'application/json',
      accept: ACCEPT_BOTH,
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-11-25',
      ...bearer(token),
    };
    await (await fetch(server.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
    return {
      send: (body, options = {}) => fetch(server.url, { method: 'POST', headers: { ...headers, ...options.headers }, body: JSON.stringify(body) }),
      stream: () => fetch(server.url, { headers: { ...headers, accept: 'text/event-stream' } }),
    };
  },
};

const modern: Era = {
  name: '2026-07-28 (stateless)',
  modern: true,
  async open(token) {
    return {
      send(body, options = {}) {
        const meta = options.tasks ? { ...MODERN_META, 'io.modelcontextprotocol/clientCapabilities': TASKS } : MODERN_META;
        const named = body.params.name ?? body.params.uri;
        const headers: Record<string, string> = {
          'content-type': 'application/json',
          accept: ACCEPT_BOTH,
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': body.method,
          ...(typeof named === 'string' && ['tools/call', 'prompts/get', 'resources/read'].includes(body.method) ? { 'mcp-name': named } : {}),
          ...bearer(token),
          ...options.headers,
        };
        return fetch(server.url, { method: 'POST', headers, body: JSON.stringify({ ...body, params: { ...body.params, _meta: meta } }) });
      },
    };
  },
};

async function answer(response: Response): Promise<Answer> {
  return { status: response.status, body: await response.text(), challenge: response.headers.get('www-authenticate') };
}

/** The answer to `hidden`, with every occurrence of the hidden name written as the unknown one. */
function renamed(hidden: Answer, from: string, to: string): Answer {
  return { ...hidden, body: hidden.body.split(from).join(to) };
}

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString().split('\n')) if (line.startsWith('{')) logged.push(JSON.parse(line) as { level: number; msg?: string });
      callback();
    },
  });
  app = createApp({
    name: 'vault',
    version: '1',
    providers: [Vault],
    logger: pino({ level: 'warn' }, sink),
    subscriptions: true,
    dynamic: true,
    impliedScopes: { 'vault:keeper': ['vault:read'] },
  });
  server = await serveHttp(app, {
    port: 0,
    auth: {
      resource: 'http://127.0.0.1/mcp',
      authorizationServers: ['https://as.example'],
      verifier: {
        verify: (token) => {
          const auth = TOKENS.get(token);
          if (auth === undefined) throw new InvalidTokenError('unknown token');
          return auth;
        },
      },
    },
  });
});

afterAll(() => server.close());

describe.each([handshake, modern])('hidden means absent on $name', (era) => {
  let user: Caller;
  let admin: Caller;

  beforeAll(async () => {
    user = await era.open('user');
    admin = await era.open('admin');
  });

  const call = (id: number, name: string, extra: Record<string, unknown> = {}): Body => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: { region: 'eu' }, ...extra },
  });

  /** The hidden request and the same request naming what nothing has: equal bytes, status and challenge. */
  async function expectAbsent(hidden: Body, from: string, to: string, options?: Parameters<Caller['send']>[1]) {
    const unknown = JSON.parse(JSON.stringify(hidden).split(from).join(to)) as Body;
    const seen = await answer(await user.send(hidden, options));
    const nothing = await answer(await user.send(unknown, options));
    expect(renamed(seen, from, to)).toEqual(nothing);
    return nothing;
  }

  it('answers a hidden tool called as a task, with a malformed task, or without its Mcp-Param-* header exactly as an unknown one', async () => {
    const absent = await expectAbsent(call(1, 'purge', { task: {} }), 'purge', 'nopes');
    expect(JSON.parse(absent.body)).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Unknown tool: nopes' } });
    expect(absent.status).toBe(era.modern ? 400 : 200);
    await expectAbsent(call(2, 'purge', { task: 5 }), 'purge', 'nopes');
    // No Mcp-Param-Region header (2026-07-28 over HTTP): the header rule of a tool nobody may see stays unknown.
    await expectAbsent(call(3, 'purge'), 'purge', 'nopes');
    // A task-required tool called without a task, and (2026-07-28) without the tasks extension.
    await expectAbsent(call(4, 'audit', { arguments: {} }), 'audit', 'nopes');
    await expectAbsent(call(5, 'audit', { arguments: {}, task: {} }), 'audit', 'nopes', { tasks: true });

    // Whoever may see them still gets their rules.
    const visible = await answer(await user.send(call(6, 'route', { task: {} })));
    const required = await answer(await user.send(call(7, 'job', { arguments: {} })));
    if (era.modern) {
      expect(JSON.parse(visible.body)).toMatchObject({ error: { code: -32020, message: 'Missing Mcp-Param-Region header for argument region' } });
      expect(JSON.parse(required.body)).toMatchObject({ error: { code: -32021 } });
    } else {
      expect(JSON.parse(visible.body)).toMatchObject({ error: { code: -32601, message: 'Method not found: tools/call (tool route does not run as a task)' } });
      expect(JSON.parse(required.body)).toMatchObject({
        error: { code: -32601, message: 'Method not found: tools/call (tool job must be called as a task (params.task))' },
      });
    }
    const own = await answer(await admin.send(call(8, 'purge', { task: {} }), { headers: { 'mcp-param-region': 'eu' } }));
    expect(JSON.parse(own.body)).toMatchObject(era.modern ? { result: { content: [{ text: 'purged eu' }] } } : { error: { code: -32601 } });
  });

  it('takes a scope named constructor, toString, hasOwnProperty or __proto__ as a scope like any other (item 9)', async () => {
    const before = logged.length;
    for (const token of ['ctor', 'tostring', 'proto']) {
      const caller = await era.open(token);
      const read = await answer(await caller.send({ jsonrpc: '2.0', id: 41, method: 'resources/read', params: { uri: 'vault://scoped' } }));
      expect(read.status).toBe(403);
      expect(JSON.parse(read.body)).toMatchObject({ error: { code: -31001, data: { error: 'insufficient_scope', scopes: ['vault:read'] } } });
      const listed = await answer(await caller.send({ jsonrpc: '2.0', id: 42, method: 'tools/list', params: {} }));
      expect((JSON.parse(listed.body) as { result: { tools: Array<{ name: string }> } }).result.tools.map((tool) => tool.name)).toEqual([
        'status',
        'route',
        'job',
      ]);
    }
    const keeper = await era.open('ctor-keeper');
    const read = await answer(await keeper.send({ jsonrpc: '2.0', id: 43, method: 'resources/read', params: { uri: 'vault://scoped' } }));
    expect(JSON.parse(read.body)).toMatchObject({ result: { contents: [{ text: 'for readers' }] } });
    // Nothing threw: no error line, no stack.
    expect(logged.slice(before).filter((line) => line.level >= 50)).toEqual([]);
  });
});
