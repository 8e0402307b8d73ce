import fc from 'fast-check';
import type { AuthInfo, JsonRpcMessage, McpApp } from '@mcpkit/core';
import { DEFAULT_MAX_RESPONSE_BYTES, encodeMessage } from '@mcpkit/core/transport';
import { createHttpHandler, type HttpHeaders, type McpHttpHandler, type ResponseMode } from '../../src';
import { caller, envelope, garbage, HANDSHAKE_VERSIONS, modernMeta, MODERN, template, uriFor, uriTail, type Envelope } from './arbitraries';
import { exchange, TemplateWorker, type Exchange } from './drive';
import { fuzzApp, HIDDEN, UNKNOWN } from './fuzz-app';
import { answeredOnce, leakedInternals, leakedNames, malformed } from './oracle';

// A property-based fuzzer of the dispatcher, through the framework-neutral HTTP core (both eras,
// sessions, batches, headers) and a connection as stdio serves it. For every generated input:
// the request ends, within HANG_MS (a hang detector: real answers take microseconds, a ReDoS
// seconds); every answer is well-formed JSON-RPC; every request id is answered exactly once; no
// answer names a hidden item the request did not name, or leaks internals; and a hidden item is
// answered exactly as an unknown one.
//
// A fixed budget in CI: FUZZ_RUNS scales the runs, FUZZ_SEED replays a failure (fast-check prints
// the seed and the shrunk counterexample).
const SCALE = Number(process.env.FUZZ_RUNS ?? 1);
const SEED = process.env.FUZZ_SEED === undefined ? 0x26_2026 : Number(process.env.FUZZ_SEED);
const HANG_MS = 2_000;
const STREAM_MS = 1_000;
const runs = (n: number) => ({ numRuns: Math.max(1, Math.round(n * SCALE)), seed: SEED, endOnFailure: false });

/**
 * `fc.assert`, reporting a failure in a few lines: the seed and path that replay it, and the
 * cause (which names the request and the answer); generated inputs can be megabytes long.
 */
async function holds<T extends unknown[]>(property: fc.IAsyncProperty<T>, parameters: fc.Parameters<T>): Promise<void> {
  const details = await fc.check(property, parameters);
  if (!details.failed) return;
  const error = details.errorInstance;
  // An error the fuzzer itself raised carries its report; anything else, its stack too.
  const cause = error instanceof Error ? (error.message.includes('\n  sent ') ? error.message : `${error.stack ?? error.message}`) : String(error);
  throw new Error(
    `failed after ${details.numRuns} run(s), shrunk ${details.numShrinks} time(s); replay with FUZZ_SEED=${details.seed} (path ${details.counterexamplePath ?? '-'})\n${cause.slice(0, 3000)}`,
  );
}

const HOST = 'localhost';
const LIMITS = { maxMessageBytes: DEFAULT_MAX_RESPONSE_BYTES, maxBatchBytes: DEFAULT_MAX_RESPONSE_BYTES };
const ACCEPT = 'application/json, text/event-stream';

/** A header value as a client sends it, as a careless one does, or missing. */
function headerLike(good: string | undefined): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 12, arbitrary: fc.constant(good) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
    { weight: 1, arbitrary: fc.constant(good === undefined ? undefined : `=?base64?${Buffer.from(good).toString('base64')}?=`) },
  );
}

function compact(headers: Record<string, string | undefined>): HttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== undefined)) as HttpHeaders;
}

function nameOf(message: unknown): string | undefined {
  const params = (message as { params?: { name?: unknown; uri?: unknown; taskId?: unknown } }).params;
  const name = params?.name ?? params?.uri ?? params?.taskId;
  return typeof name === 'string' ? name : undefined;
}

function methodOf(message: unknown): string | undefined {
  const { method } = message as { method?: unknown };
  return typeof method === 'string' ? method : undefined;
}

function argumentOf(message: unknown, key: string): string | undefined {
  const value = (message as { params?: { arguments?: Record<string, unknown> } }).params?.arguments?.[key];
  return value === undefined || value === null ? undefined : String(value);
}

interface Setup {
  readonly sessions: boolean;
  readonly responseMode: ResponseMode;
}

const setup: fc.Arbitrary<Setup> = fc.record({ sessions: fc.boolean(), responseMode: fc.constantFrom<ResponseMode>('auto', 'json', 'sse') });

/** One HTTP request a client might send: its kind decides the era and the shape. */
interface Sent {
  readonly method: string;
  readonly headers: HttpHeaders;
  readonly body?: string;
  /** Ids that must each get exactly one answer; undefined when the input makes that ambiguous (ids repeated, not JSON). */
  readonly requestIds: ReadonlyArray<string | number> | undefined;
  /** A 2026-07-28 listen: answered when it ends, which is when its client leaves. */
  readonly listens: boolean;
  /** Who the binding says is calling (as one that authenticated the request itself). */
  readonly auth?: AuthInfo | null;
}

function sent(method: string, headers: HttpHeaders, envelopes: readonly Envelope[] | undefined, body: string | undefined): Sent {
  if (envelopes === undefined) return { method, headers, body, requestIds: undefined, listens: false };
  const ids = envelopes.flatMap((e) => (e.requestId === undefined ? [] : [e.requestId]));
  const unique = new Set(ids.map((id) => JSON.stringify(id))).size === ids.length;
  const listens = envelopes.some((e) => methodOf(e.message) === 'subscriptions/listen');
  return { method, headers, body, requestIds: unique && !listens ? ids : undefined, listens };
}

const modernPost = envelope(modernMeta).chain((e) => {
  const method = methodOf(e.message);
  return fc
    .record({
      accept: headerLike(ACCEPT),
      contentType: headerLike('application/json'),
      version: headerLike(MODERN),
      mcpMethod: headerLike(method),
      mcpName: headerLike(nameOf(e.message)),
      region: headerLike(argumentOf(e.message, 'region')),
      secretRegion: headerLike(argumentOf(e.message, 'zzSecretRegion')),
    })
    .map((h) =>
      sent(
        'POST',
        compact({
          host: HOST,
          accept: h.accept,
          'content-type': h.contentType,
          'mcp-protocol-version': h.version,
          'mcp-method': h.mcpMethod,
          'mcp-name': h.mcpName,
          'mcp-param-region': h.region,
          'mcp-param-zzsecretregion': h.secretRegion,
        }),
        [e],
        JSON.stringify(e.message),
      ),
    );
});

/** A POST on a session (or what claims one): one message or a batch. */
const sessionPost = (sessionId: string | undefined, version: string) =>
  fc
    .record({
      envelopes: fc.oneof(
        { weight: 4, arbitrary: fc.array(envelope(fc.constant(undefined)), { minLength: 1, maxLength: 1 }) },
        { weight: 1, arbitrary: fc.array(envelope(fc.constant(undefined)), { maxLength: 4 }) },
      ),
      batch: fc.boolean(),
      accept: headerLike(ACCEPT),
      contentType: headerLike('application/json'),
      version: headerLike(version),
      session: headerLike(sessionId),
    })
    .map((r) => {
      const asBatch = r.batch || r.envelopes.length !== 1;
      const body = JSON.stringify(asBatch ? r.envelopes.map((e) => e.message) : r.envelopes[0].message);
      const headers = compact({ host: HOST, accept: r.accept, 'content-type': r.contentType, 'mcp-protocol-version': r.version, 'mcp-session-id': r.session });
      return sent('POST', headers, r.envelopes, body);
    });

const garbagePost = fc
  .record({ body: garbage, accept: headerLike(ACCEPT), version: fc.constantFrom(undefined, MODERN, '2025-11-25') })
  .map((r) =>
    sent('POST', compact({ host: HOST, accept: r.accept, 'content-type': 'application/json', 'mcp-protocol-version': r.version }), undefined, r.body),
  );

const otherMethod = (sessionId: string | undefined) =>
  fc
    .record({
      method: fc.constantFrom('GET', 'DELETE', 'PUT', 'OPTIONS'),
      session: headerLike(sessionId),
      lastEventId: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
    })
    .map((r) =>
      sent(r.method, compact({ host: HOST, accept: 'text/event-stream', 'mcp-session-id': r.session, 'last-event-id': r.lastEventId }), undefined, undefined),
    );

/** How many messages a line holds: a batch's length, else one. */
function entries(text: string): number {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.length : 1;
  } catch {
    return 1;
  }
}

function requestText(request: Sent): string {
  return `${JSON.stringify(request.headers)}\n${request.body ?? ''}`;
}

/** Everything wrong with one exchange, by the fuzzer's rules. */
function problemsOf(request: Sent, answer: Exchange): string[] {
  const problems = [...answer.problems];
  if (answer.elapsedMs > HANG_MS) problems.push(`took ${Math.round(answer.elapsedMs)} ms (hang bound ${HANG_MS} ms)`);
  if (answer.status >= 500) problems.push(`status ${answer.status}`);
  for (const message of answer.messages) {
    const why = malformed(message);
    if (why) problems.push(`malformed answer (${why}): ${JSON.stringify(message).slice(0, 200)}`);
  }
  if (request.requestIds !== undefined && request.method === 'POST') {
    const why = answeredOnce(request.requestIds, answer.messages);
    if (why) problems.push(why);
  } else if (
    !request.listens &&
    answer.messages.filter((m) => !malformed(m) && !('method' in (m as object))).length > Math.max(1, entries(request.body ?? ''))
  ) {
    problems.push('more answers than messages');
  }
  const leaked = leakedNames(requestText(request), answer.text);
  if (leaked.length > 0) problems.push(`hidden names in the answer: ${leaked.join(', ')}`);
  const internals = leakedInternals(answer.text);
  if (internals.length > 0) problems.push(`internals in the answer: ${internals.join(', ')}`);
  return problems;
}

function report(request: Sent, answer: Exchange, problems: string[]): string {
  return `${problems.join('; ')}\n  sent ${request.method} ${JSON.stringify(request.headers)} ${request.body?.slice(0, 400) ?? ''}\n  got ${answer.status} ${answer.text.slice(0, 400)}`;
}

async function openSession(handler: McpHttpHandler, version: string): Promise<string | undefined> {
  const result = await handler.handle({
    method: 'POST',
    path: '/mcp',
    headers: { host: HOST, accept: ACCEPT, 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 'open',
      method: 'initialize',
      params: { protocolVersion: version, capabilities: { elicitation: {} }, clientInfo: { name: 'fuzz', version: '1' } },
    }),
  });
  const sessionId = result.headers['mcp-session-id'];
  if (sessionId !== undefined) {
    await handler.handle({
      method: 'POST',
      path: '/mcp',
      headers: { host: HOST, accept: ACCEPT, 'content-type': 'application/json', 'mcp-session-id': sessionId, 'mcp-protocol-version': version },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
  }
  if ('stream' in result) result.stream.close();
  return sessionId;
}

describe('the dispatcher under generated input (fast-check)', () => {
  const handlers: McpHttpHandler[] = [];
  const afterAllClose: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    await Promise.all([...handlers.map((handler) => handler.close()), ...afterAllClose.map((close) => close())]);
  });

  function serve(app: McpApp, options: Setup): McpHttpHandler {
    const handler = createHttpHandler({ app, path: '/mcp', ...options });
    handlers.push(handler);
    return handler;
  }

  test('over HTTP, both eras: every request ends once, well-formed, in bounded time, leaking nothing', async () => {
    const app = fuzzApp();
    await holds(
      fc.asyncProperty(setup, fc.constantFrom(...HANDSHAKE_VERSIONS), fc.integer({ min: 0, max: 0x7fffffff }), async (options, version, seed) => {
        const handler = serve(app, options);
        const sessionId = await openSession(handler, version);
        const requests = fc.sample(
          fc.array(
            fc.tuple(
              fc.oneof(
                { weight: 5, arbitrary: modernPost },
                { weight: 5, arbitrary: sessionPost(sessionId, version) },
                { weight: 1, arbitrary: garbagePost },
                { weight: 1, arbitrary: otherMethod(sessionId) },
              ),
              caller,
            ),
            { minLength: 4, maxLength: 12 },
          ),
          { seed, numRuns: 1 },
        )[0];
        for (const [request, auth] of requests) {
          const answer = await exchange(
            handler,
            { method: request.method, path: '/mcp', headers: request.headers, body: request.body, auth: auth ?? null },
            STREAM_MS,
            request.listens,
          );
          const problems = problemsOf(request, answer);
          if (problems.length > 0) throw new Error(`${auth ? `as ${JSON.stringify(auth)}: ` : ''}${report(request, answer, problems)}`);
        }
        await handler.close();
      }),
      runs(300),
    );
  });

  test('resource templates: any URI against any accepted template is answered in bounded time', async () => {
    // In a worker thread of the built packages, so that a matcher stuck for minutes is reported
    // (and the worker terminated) after HANG_MS instead of holding the run.
    let worker = new TemplateWorker();
    afterAllClose.push(() => worker.close());
    await holds(
      fc.asyncProperty(
        fc.array(
          template.chain((body) => fc.tuple(fc.constant(body), fc.array(fc.oneof(uriFor(body), uriTail), { minLength: 1, maxLength: 4 }))),
          { minLength: 1, maxLength: 3 },
        ),
        async (cases) => {
          const templates = cases.map(([body], index) => `t${index}://${body}`);
          await worker.build(templates);
          for (const [index, tail] of cases.flatMap(([, tails], index) => tails.map((t) => [index, t] as const))) {
            const uri = `t${index}://${tail}`;
            const answer = await worker.read(uri, HANG_MS);
            const problems: string[] = [];
            if (answer === 'hung') {
              problems.push(`no answer within ${HANG_MS} ms`);
              worker = new TemplateWorker();
            } else if ('thrown' in answer) {
              problems.push(`threw ${answer.thrown}`);
            } else {
              if (answer.status >= 500) problems.push(`status ${answer.status}`);
              const parsed: unknown = JSON.parse(answer.body ?? 'null');
              const why = malformed(parsed);
              if (why) problems.push(`malformed (${why})`);
              const once = answeredOnce([1], [parsed]);
              if (once) problems.push(once);
            }
            if (problems.length > 0)
              throw new Error(`${problems.join('; ')}\n  templates ${JSON.stringify(templates)}\n  uri (${uri.length} characters) ${uri.slice(0, 200)}`);
          }
        },
      ),
      { ...runs(80), endOnFailure: true },
    );
  });

  test('a hidden item is answered exactly as an unknown one, on both eras, whatever else the request says', async () => {
    const app = fuzzApp();
    const targets = fc.constantFrom(
      { method: 'tools/call', hidden: HIDDEN.tool, unknown: UNKNOWN.tool, key: 'name' },
      { method: 'tools/call', hidden: HIDDEN.taskTool, unknown: UNKNOWN.taskTool, key: 'name' },
      { method: 'tools/call', hidden: HIDDEN.headerTool, unknown: UNKNOWN.headerTool, key: 'name' },
      { method: 'prompts/get', hidden: HIDDEN.prompt, unknown: UNKNOWN.prompt, key: 'name' },
      { method: 'resources/read', hidden: HIDDEN.resource, unknown: UNKNOWN.resource, key: 'uri' },
      { method: 'resources/subscribe', hidden: HIDDEN.resource, unknown: UNKNOWN.resource, key: 'uri' },
      { method: 'completion/complete', hidden: HIDDEN.prompt, unknown: UNKNOWN.prompt, key: 'ref' },
    );
    await holds(
      fc.asyncProperty(
        targets,
        fc.boolean(),
        fc.constantFrom(...HANDSHAKE_VERSIONS),
        fc.record(
          {
            arguments: fc.oneof(
              fc.record({ text: fc.string({ maxLength: 5 }) }),
              fc.record({ zzSecretRegion: fc.string({ maxLength: 5 }) }),
              fc.jsonValue({ maxDepth: 2 }),
            ),
            task: fc.constantFrom<unknown>({}, 5, { ttl: 10 }, null),
            capabilities: fc.constantFrom<unknown>({}, { extensions: { 'io.modelcontextprotocol/tasks': {} } }),
            headers: fc.record({ name: fc.boolean(), region: fc.boolean() }),
          },
          { requiredKeys: ['capabilities', 'headers'] },
        ),
        async (target, modern, version, extra) => {
          const ask = async (name: string): Promise<{ status: number; text: string }> => {
            const handler = serve(app, { sessions: true, responseMode: 'json' });
            const sessionId = modern ? undefined : await openSession(handler, version);
            const params: Record<string, unknown> =
              target.key === 'ref' ? { ref: { type: 'ref/prompt', name }, argument: { name: 'topic', value: 'a' } } : { [target.key]: name };
            if (target.method === 'tools/call') {
              if (extra.arguments !== undefined) params.arguments = extra.arguments;
              if ('task' in extra) params.task = extra.task;
            }
            if (target.method === 'prompts/get') params.arguments = { topic: 'x' };
            if (modern) params._meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': extra.capabilities };
            const message = { jsonrpc: '2.0', id: 7, method: target.method, params };
            const headers = compact({
              host: HOST,
              accept: ACCEPT,
              'content-type': 'application/json',
              'mcp-protocol-version': modern ? MODERN : version,
              'mcp-session-id': sessionId,
              'mcp-method': modern ? target.method : undefined,
              'mcp-name': modern && extra.headers.name && target.key !== 'ref' ? name : undefined,
              'mcp-param-zzsecretregion': modern && extra.headers.region ? 'x' : undefined,
            });
            const answer = await exchange(handler, { method: 'POST', path: '/mcp', headers, body: JSON.stringify(message) }, STREAM_MS);
            await handler.close();
            return { status: answer.status, text: answer.text };
          };
          const hidden = await ask(target.hidden);
          const unknown = await ask(target.unknown);
          const neutral = (text: string, name: string) => text.split(name).join('<name>');
          expect({ status: hidden.status, text: neutral(hidden.text, target.hidden) }).toEqual({
            status: unknown.status,
            text: neutral(unknown.text, target.unknown),
          });
        },
      ),
      runs(60),
    );
  });

  test('over a connection as stdio serves it: lines of anything, each request answered once', async () => {
    const app = fuzzApp();
    const line = fc.oneof(
      {
        weight: 6,
        arbitrary: envelope(fc.constant(undefined)).map((e) => ({ text: JSON.stringify(e.message), ids: e.requestId === undefined ? [] : [e.requestId] })),
      },
      { weight: 4, arbitrary: envelope(modernMeta).map((e) => ({ text: JSON.stringify(e.message), ids: e.requestId === undefined ? [] : [e.requestId] })) },
      {
        weight: 1,
        arbitrary: fc
          .array(envelope(fc.constant(undefined)), { maxLength: 4 })
          .map((list) => ({ text: JSON.stringify(list.map((e) => e.message)), ids: list.flatMap((e) => (e.requestId === undefined ? [] : [e.requestId])) })),
      },
      // Not quite a message: at most one answer (the refusal, with the id when it could be read).
      { weight: 1, arbitrary: garbage.map((text) => ({ text, ids: undefined as Array<string | number> | undefined })) },
    );
    await holds(
      fc.asyncProperty(fc.constantFrom(...HANDSHAKE_VERSIONS), fc.array(line, { minLength: 1, maxLength: 12 }), async (version, lines) => {
        const connection = app.connect({ kind: 'stdio' });
        const out: unknown[] = [];
        connection.setOutbound((message) => void out.push(message));
        const opened = {
          jsonrpc: '2.0',
          id: 'open',
          method: 'initialize',
          params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
        };
        await connection.receiveText(JSON.stringify(opened));
        await connection.receiveText('{"jsonrpc":"2.0","method":"notifications/initialized"}');
        for (const { text, ids } of lines) {
          const started = performance.now();
          // A listen is answered when it ends, not now: it is left open, and its id is not counted.
          const listens = text.includes('"subscriptions/listen"');
          const pending = connection.receiveText(text);
          let timer: NodeJS.Timeout | undefined;
          const answer = listens
            ? undefined
            : await Promise.race([pending, new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), HANG_MS)))]);
          clearTimeout(timer);
          if (answer === 'hung') throw new Error(`no answer within ${HANG_MS} ms\n  sent ${text.slice(0, 400)}`);
          const elapsed = performance.now() - started;
          // What went out meanwhile (server requests, progress, log lines) and the answer itself.
          // As the transport writes them: ids kept exact go out with the client's digits.
          const wire = [...out.splice(0), ...(answer === undefined ? [] : [answer])].map((message) => encodeMessage(message as JsonRpcMessage, LIMITS));
          const messages = wire.flatMap((text) => (text === undefined ? [] : ([] as unknown[]).concat(JSON.parse(text))));
          const unique = ids !== undefined && !listens && new Set(ids.map((id) => JSON.stringify(id))).size === ids.length;
          const problems: string[] = [];
          if (elapsed > HANG_MS) problems.push(`took ${Math.round(elapsed)} ms`);
          for (const message of messages) {
            const why = malformed(message);
            if (why) problems.push(`malformed (${why}): ${JSON.stringify(message).slice(0, 200)}`);
          }
          const answers = messages.filter((m) => !('method' in (m as object)));
          if (unique) {
            const why = answeredOnce(ids, answers);
            if (why) problems.push(why);
          } else if (ids === undefined && answers.length > Math.max(1, entries(text))) {
            problems.push(`${answers.length} answers to one line`);
          }
          const texts = wire.join('\n');
          const leaked = leakedNames(text, texts);
          if (leaked.length > 0) problems.push(`hidden names: ${leaked.join(', ')}`);
          const internals = leakedInternals(texts);
          if (internals.length > 0) problems.push(`internals: ${internals.join(', ')}`);
          if (problems.length > 0) throw new Error(`${problems.join('; ')}\n  sent ${text.slice(0, 400)}\n  got ${texts.slice(0, 400)}`);
        }
        connection.close();
      }),
      runs(300),
    );
  });
});
