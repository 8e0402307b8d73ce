import { Writable } from 'node:stream';
import { IsOptional, IsString } from 'class-validator';
import pino from 'pino';
import { Complete, createApp, Field, Prompt, RequireRoles, RequireScopes, Resource, ResourceTemplate, Tool, type AuthInfo, type McpApp } from '@mcpkit/core';
import { InvalidTokenError } from '@mcpkit/http';
import { serveHttp, type HttpServer } from '../src';
import { ACCEPT_BOTH, INITIALIZE, parseSse } from './fixture-app';

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

/** Added to the running app: a resource hidden from everyone but admins, at a URI clients may already have subscribed to. */
class Later {
  @Resource({ uri: 'vault://later', mimeType: 'text/plain' })
  @RequireRoles('admin')
  later() {
    return 'later';
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

/** Reads the events of an SSE response as they arrive. */
class EventReader {
  readonly events: Array<Record<string, unknown>> = [];
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private text = '';

  constructor(response: Response) {
    this.reader = response.body!.getReader();
  }

  /** Reads on until `done` holds for what arrived so far (or the stream ends). */
  async until(done: (events: Array<Record<string, unknown>>) => boolean): Promise<Array<Record<string, unknown>>> {
    while (!done(this.events)) {
      const { value, done: ended } = await this.reader.read();
      if (ended) break;
      this.text += this.decoder.decode(value, { stream: true });
      const end = this.text.lastIndexOf('\n\n');
      if (end < 0) continue;
      for (const event of parseSse(this.text.slice(0, end + 2))) if (event.data !== '') this.events.push(JSON.parse(event.data) as Record<string, unknown>);
      this.text = this.text.slice(end + 2);
    }
    return this.events;
  }

  close(): Promise<void> {
    return this.reader.cancel();
  }
}

const updates = (events: Array<Record<string, unknown>>): string[] =>
  events.filter((event) => event.method === 'notifications/resources/updated').map((event) => (event.params as { uri: string }).uri);

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

  it('answers a hidden prompt, resource, template and their completions exactly as unknown ones', async () => {
    await expectAbsent(
      { jsonrpc: '2.0', id: 11, method: 'prompts/get', params: { name: 'secret_plan', arguments: { topic: 'x' } } },
      'secret_plan',
      'nope_plans',
    );
    await expectAbsent({ jsonrpc: '2.0', id: 12, method: 'resources/read', params: { uri: 'vault://secret' } }, 'vault://secret', 'vault://absent');
    await expectAbsent({ jsonrpc: '2.0', id: 13, method: 'resources/read', params: { uri: 'vault://keys/1' } }, 'vault://keys/1', 'vault://none/1');
    const shelved = await expectAbsent(
      { jsonrpc: '2.0', id: 18, method: 'resources/read', params: { uri: 'shelf://hidden-book' } },
      'hidden-book',
      'other-book',
    );
    expect(JSON.parse(shelved.body)).toMatchObject({ result: { contents: [{ uri: 'shelf://other-book', text: 'a book called other-book' }] } });
    const complete = (id: number, ref: Record<string, unknown>, name: string): Body => ({
      jsonrpc: '2.0',
      id,
      method: 'completion/complete',
      params: { ref, argument: { name, value: '' } },
    });
    await expectAbsent(complete(14, { type: 'ref/prompt', name: 'secret_plan' }, 'topic'), 'secret_plan', 'nope_plans');
    await expectAbsent(complete(15, { type: 'ref/resource', uri: 'vault://keys/{id}' }, 'id'), 'vault://keys/{id}', 'vault://none/{id}');
    // The admin sees each of them.
    expect(JSON.parse((await answer(await admin.send(complete(16, { type: 'ref/prompt', name: 'secret_plan' }, 'topic')))).body)).toMatchObject({
      result: { completion: { values: ['heist'] } },
    });
    expect(
      JSON.parse((await answer(await admin.send({ jsonrpc: '2.0', id: 17, method: 'resources/read', params: { uri: 'vault://keys/7' } }))).body),
    ).toMatchObject({
      result: { contents: [{ text: 'key 7' }] },
    });
  });

  it('refuses a subscription the read rule refuses, as the read is refused (403 naming the scope)', async () => {
    const read = await answer(await user.send({ jsonrpc: '2.0', id: 21, method: 'resources/read', params: { uri: 'vault://scoped' } }));
    expect(read.status).toBe(403);
    expect(read.challenge).toMatch(/^Bearer error="insufficient_scope", .*scope="vault:read"/);
    const subscribe: Body = era.modern
      ? { jsonrpc: '2.0', id: 21, method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: ['vault://public', 'vault://scoped'] } } }
      : { jsonrpc: '2.0', id: 21, method: 'resources/subscribe', params: { uri: 'vault://scoped' } };
    expect(await answer(await user.send(subscribe))).toEqual(read);
  });

  it('answers a subscription to a hidden resource as to an unknown one, and never tells of its updates', async () => {
    let reader: EventReader;
    if (era.modern) {
      const listen = async (uris: string[]) => {
        const opened = new EventReader(
          await user.send({ jsonrpc: '2.0', id: 31, method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: uris } } }),
        );
        await opened.until((seen) => seen.length > 0);
        return opened;
      };
      // The acknowledgement: the hidden URI is honoured exactly as an unknown one would be.
      const hidden = await listen(['vault://secret']);
      const unknown = await listen(['vault://absent']);
      expect(JSON.stringify(hidden.events).split('vault://secret').join('vault://absent')).toBe(JSON.stringify(unknown.events));
      await Promise.all([hidden.close(), unknown.close()]);
      // Acknowledged: from now on it hears.
      reader = await listen(['vault://secret', 'vault://keys/1', 'vault://public']);
    } else {
      for (const [id, uri] of [
        [32, 'vault://secret'],
        [33, 'vault://keys/1'],
        [34, 'vault://public'],
      ] as const) {
        const subscribed = await answer(await user.send({ jsonrpc: '2.0', id, method: 'resources/subscribe', params: { uri } }));
        expect(subscribed).toEqual({ status: 200, body: JSON.stringify({ jsonrpc: '2.0', id, result: {} }), challenge: null });
      }
      const stream = await user.stream!();
      expect(stream.status).toBe(200);
      reader = new EventReader(stream);
    }
    app.resourceUpdated('vault://secret');
    app.resourceUpdated('vault://keys/1');
    app.resourceUpdated('vault://public');
    // Published first, the hidden ones would have arrived before the public one.
    expect(updates(await reader.until((seen) => updates(seen).includes('vault://public')))).toEqual(['vault://public']);
    await reader.close();
    expect(JSON.parse((await answer(await user.send(call(35, 'status', { arguments: {} })))).body)).toMatchObject({ result: { content: [{ text: 'up' }] } });
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

describe('a subscription made before a dynamic app changes', () => {
  it('is held to the read rule of what answers its URI now: a resource added hidden is never heard of, on either era', async () => {
    const legacy = await handshake.open('user');
    expect(await answer(await legacy.send({ jsonrpc: '2.0', id: 51, method: 'resources/subscribe', params: { uri: 'vault://later' } }))).toMatchObject({
      status: 200,
    });
    await answer(await legacy.send({ jsonrpc: '2.0', id: 52, method: 'resources/subscribe', params: { uri: 'vault://public' } }));
    const stream = new EventReader(await legacy.stream!());
    const stateless = await modern.open('user');
    const listen = new EventReader(
      await stateless.send({
        jsonrpc: '2.0',
        id: 53,
        method: 'subscriptions/listen',
        params: { notifications: { resourceSubscriptions: ['vault://later', 'vault://public'] } },
      }),
    );
    await listen.until((seen) => seen.length > 0);

    app.addProviders([new Later()]);
    app.resourceUpdated('vault://later');
    app.resourceUpdated('vault://public');
    for (const reader of [stream, listen]) {
      expect(updates(await reader.until((seen) => updates(seen).includes('vault://public')))).toEqual(['vault://public']);
      await reader.close();
    }
  });
});
