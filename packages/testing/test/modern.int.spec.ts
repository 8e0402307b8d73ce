import { createApp, Resource, Tool, type RequestContext } from '@mcpkit/core';
import { type Connection } from '@mcpkit/core/transport';
import { IsString } from 'class-validator';
import pino from 'pino';
import { TestClient } from '../src';

class EchoInput {
  @IsString()
  text: string;
}

class Surface {
  @Tool({ title: 'Echo' })
  echo(input: EchoInput, ctx: RequestContext) {
    ctx.log.info(`echoing ${input.text}`);
    return `${input.text}|${ctx.client.protocolVersion}|${ctx.session === undefined ? 'no session' : 'session'}`;
  }

  @Tool({ input: null })
  async ask(_input: unknown, ctx: RequestContext) {
    await ctx.sample('hi');
    return 'unreachable';
  }

  @Tool()
  async twoQuestions(input: EchoInput, ctx: RequestContext) {
    const who = await ctx.elicit('Who?', { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }, { key: 'who' });
    const heard = await ctx.sample(`Hello from ${input.text}`);
    const text = !Array.isArray(heard.content) && heard.content.type === 'text' ? heard.content.text : '';
    return `${who.action === 'accept' ? String(who.content.name) : who.action} heard ${text}`;
  }

  @Tool({ input: null })
  async swallow(_input: unknown, ctx: RequestContext) {
    try {
      const answer = await ctx.elicit('Sure?', { type: 'object', properties: {} }, { key: 'sure' });
      return `answered ${answer.action}`;
    } catch {
      throw new Error('wrapped');
    }
  }

  @Tool({ input: null })
  async ignore(_input: unknown, ctx: RequestContext) {
    try {
      await ctx.elicit('Sure?', { type: 'object', properties: {} }, { key: 'sure' });
    } catch {
      // a user's catch-all: the round still ends
    }
    return 'went on without an answer';
  }

  @Resource({ uri: 'm://one' })
  one() {
    return 'one';
  }
}

const app = createApp({
  name: 'dual',
  version: '2.0.0',
  instructions: 'Both eras.',
  providers: [Surface],
  logger: pino({ level: 'silent' }),
  clientLogging: true,
});
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'modern', version: '1' },
};

let id = 1;
async function modern(connection: Connection, method: string, params: Record<string, unknown> = {}, meta: Record<string, unknown> = META): Promise<any> {
  return connection.receive({ jsonrpc: '2.0', id: id++, method, params: { ...params, _meta: meta } });
}

describe('2026-07-28 requests beside the handshake era (core)', () => {
  it('answers server/discover without a handshake', async () => {
    const connection = app.connect({ kind: 'memory' });
    expect((await modern(connection, 'server/discover')).result).toEqual({
      supportedVersions: ['2026-07-28', '2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'],
      capabilities: { tools: {}, resources: {} },
      instructions: 'Both eras.',
      resultType: 'complete',
      ttlMs: 0,
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'dual', version: '2.0.0' } },
    });
  });

  it('serves calls statelessly, with resultType, cache hints and server info', async () => {
    const connection = app.connect({ kind: 'memory' });
    expect((await modern(connection, 'tools/call', { name: 'echo', arguments: { text: 'x' } })).result).toEqual({
      content: [{ type: 'text', text: 'x|2026-07-28|no session' }],
      resultType: 'complete',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'dual', version: '2.0.0' } },
    });
    expect((await modern(connection, 'tools/list')).result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'public', tools: expect.any(Array) });
    expect((await modern(connection, 'resources/read', { uri: 'm://one' })).result).toMatchObject({ cacheScope: 'private', contents: [{ text: 'one' }] });
  });

  it('answers an unknown resource with -32602 and the URI', async () => {
    const answer = await modern(app.connect({ kind: 'memory' }), 'resources/read', { uri: 'm://none' });
    expect(answer.error).toEqual({ code: -32602, message: 'Resource not found', data: { uri: 'm://none' } });
  });

  it('rejects missing _meta keys, unknown versions and removed methods', async () => {
    const connection = app.connect({ kind: 'memory' });
    expect((await modern(connection, 'tools/list', {}, { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' })).error.code).toBe(-32602);
    expect((await modern(connection, 'tools/list', {}, { ...META, 'io.modelcontextprotocol/protocolVersion': '1900-01-01' })).error).toEqual({
      code: -32022,
      message: 'Unsupported protocol version',
      data: { supported: ['2026-07-28', '2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'], requested: '1900-01-01' },
    });
    for (const method of ['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe', 'nope']) {
      expect((await modern(connection, method)).error.code).toBe(-32601);
    }
  });

  it('sends client logs only when the request asks with its own log level', async () => {
    const sent: unknown[] = [];
    const connection = app.connect({ kind: 'memory' });
    await connection.receive(
      { jsonrpc: '2.0', id: 'q', method: 'tools/call', params: { name: 'echo', arguments: { text: 'quiet' }, _meta: META } },
      { send: (m) => void sent.push(m) },
    );
    expect(sent).toEqual([]);
    await connection.receive(
      {
        jsonrpc: '2.0',
        id: 'l',
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'loud' }, _meta: { ...META, 'io.modelcontextprotocol/logLevel': 'info' } },
      },
      { send: (m) => void sent.push(m) },
    );
    expect(sent).toEqual([{ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'echoing loud' } }]);
  });

  it('answers a needed but undeclared client capability with -32021', async () => {
    const answer = await modern(app.connect({ kind: 'memory' }), 'tools/call', { name: 'ask', arguments: {} });
    expect(answer.error).toEqual({ code: -32021, message: 'Missing required client capability: sampling', data: { requiredCapabilities: { sampling: {} } } });
  });

  it('asks the client through input-required results, over as many rounds as the handler needs', async () => {
    const connection = app.connect({ kind: 'memory' });
    const meta = { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, sampling: {} } };
    const first = (await modern(connection, 'tools/call', { name: 'twoQuestions', arguments: { text: 'a' } }, meta)).result;
    expect(first).toEqual({
      resultType: 'input_required',
      inputRequests: { who: { method: 'elicitation/create', params: { mode: 'form', message: 'Who?', requestedSchema: expect.any(Object) } } },
      requestState: expect.any(String),
      _meta: expect.any(Object),
    });
    // A missing answer is asked again (unknown keys ignored), not an error …
    const again = (
      await modern(
        connection,
        'tools/call',
        { name: 'twoQuestions', arguments: { text: 'a' }, requestState: first.requestState, inputResponses: { other: 1 } },
        meta,
      )
    ).result;
    expect(again.resultType).toBe('input_required');
    // … a malformed one is an error (protocol: malformed inputResponses → JSON-RPC error).
    const garbage = await modern(
      connection,
      'tools/call',
      { name: 'twoQuestions', arguments: { text: 'a' }, requestState: first.requestState, inputResponses: { who: 'garbage' } },
      meta,
    );
    expect(garbage.error).toMatchObject({ code: -32602, message: expect.stringContaining('inputResponses["who"]') });
    const second = (
      await modern(
        connection,
        'tools/call',
        {
          name: 'twoQuestions',
          arguments: { text: 'a' },
          requestState: again.requestState,
          inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } },
        },
        meta,
      )
    ).result;
    expect(Object.keys(second.inputRequests)).toEqual(['sampling-2']);
    const badSample = await modern(
      connection,
      'tools/call',
      {
        name: 'twoQuestions',
        arguments: { text: 'a' },
        requestState: second.requestState,
        inputResponses: { 'sampling-2': { role: 'assistant', model: 'm', content: 5 } },
      },
      meta,
    );
    expect(badSample.error).toMatchObject({ code: -32602 });
    const done = (
      await modern(
        connection,
        'tools/call',
        {
          name: 'twoQuestions',
          arguments: { text: 'a' },
          requestState: second.requestState,
          inputResponses: { 'sampling-2': { role: 'assistant', model: 'm', content: { type: 'text', text: 'hi' } } },
        },
        meta,
      )
    ).result;
    expect(done).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Ada heard hi' }] });
  });

  it('rejects a requestState that was altered, is for other arguments, or is not a string', async () => {
    const connection = app.connect({ kind: 'memory' });
    const meta = { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, sampling: {} } };
    const first = (await modern(connection, 'tools/call', { name: 'twoQuestions', arguments: { text: 'a' } }, meta)).result;
    for (const params of [
      { name: 'twoQuestions', arguments: { text: 'a' }, requestState: `${first.requestState as string}x` },
      { name: 'twoQuestions', arguments: { text: 'b' }, requestState: first.requestState },
      { name: 'twoQuestions', arguments: { text: 'a' }, requestState: 42 },
      { name: 'twoQuestions', arguments: { text: 'a' }, inputResponses: 'nope' },
    ]) {
      expect((await modern(connection, 'tools/call', params, meta)).error).toMatchObject({ code: -32602 });
    }
  });

  it('ends the round even when the handler catches the signal, and resumes with the answer', async () => {
    const connection = app.connect({ kind: 'memory' });
    const meta = { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
    for (const name of ['swallow', 'ignore']) {
      const first = (await modern(connection, 'tools/call', { name, arguments: {} }, meta)).result;
      expect(first).toMatchObject({ resultType: 'input_required', inputRequests: { sure: { method: 'elicitation/create' } } });
      const done = (
        await modern(connection, 'tools/call', { name, arguments: {}, requestState: first.requestState, inputResponses: { sure: { action: 'decline' } } }, meta)
      ).result;
      expect(done).toMatchObject({
        resultType: 'complete',
        content: [{ type: 'text', text: name === 'swallow' ? 'answered decline' : 'went on without an answer' }],
      });
    }
  });

  it('numbers questions without a key in the order asked', async () => {
    const answer = await modern(
      app.connect({ kind: 'memory' }),
      'tools/call',
      { name: 'ask', arguments: {} },
      { ...META, 'io.modelcontextprotocol/clientCapabilities': { sampling: {} } },
    );
    expect(answer.result).toMatchObject({ resultType: 'input_required', inputRequests: { 'sampling-1': { method: 'sampling/createMessage' } } });
  });

  it('listens: acknowledges the honoured filter, tags notifications, stops on cancel', async () => {
    const live = createApp({ name: 'live', version: '1', providers: [Surface], logger: pino({ level: 'silent' }), dynamic: true, subscriptions: true });
    const sent: Array<Record<string, unknown>> = [];
    const connection = live.connect({ kind: 'memory' });
    const listening = connection.receive(
      {
        jsonrpc: '2.0',
        id: 'sub-1',
        method: 'subscriptions/listen',
        params: { _meta: META, notifications: { toolsListChanged: true, resourceSubscriptions: ['m://one'], bogus: true } },
      },
      { send: (message) => void sent.push(message as unknown as Record<string, unknown>) },
    );
    const tag = { 'io.modelcontextprotocol/subscriptionId': 'sub-1' };
    expect(sent[0]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { _meta: tag, notifications: { toolsListChanged: true, resourceSubscriptions: ['m://one'] } },
    });
    live.disable('tool', 'echo');
    live.disable('resource', 'm://one');
    live.resourceUpdated('m://one');
    live.resourceUpdated('m://other');
    expect(sent.slice(1)).toEqual([
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: tag } },
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'm://one', _meta: tag } },
    ]);
    // A second listen cannot take over an id that is still in flight.
    const again = await connection.receive(
      { jsonrpc: '2.0', id: 'sub-1', method: 'subscriptions/listen', params: { _meta: META, notifications: { toolsListChanged: true } } },
      { send: () => undefined },
    );
    expect(again).toMatchObject({ id: 'sub-1', error: { code: -32600 } });
    await connection.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'sub-1' } });
    expect(await listening).toBeUndefined();
    live.enable('tool', 'echo');
    expect(sent).toHaveLength(3);
    // Only the connection's own subscription is left: the listen stream let go of the bus.
    expect((live.settings.bus as unknown as { size: number }).size).toBe(1);
    connection.close();
    expect((live.settings.bus as unknown as { size: number }).size).toBe(0);
  });

  it('keeps the legacy era working on the same connection', async () => {
    const client = await TestClient.connect(app);
    expect((await client.callTool('echo', { text: 'old' })).content).toEqual([{ type: 'text', text: 'old|2025-11-25|session' }]);
  });
});
