import fc from 'fast-check';
import { UriTemplate } from '@mcpkit/core';
import { HIDDEN, UNKNOWN } from './fuzz-app';

export const MODERN = '2026-07-28';
export const HANDSHAKE_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;

// ---------------------------------------------------------------------------------------------
// RFC 6570 templates and URIs aimed at them

const OPERATORS = ['', '+', '#', '.', '/', ';', '?', '&'] as const;
// What URIs and literals are made of: the separators every operator splits on, and a few others.
const URI_PIECES = ['a', 'z', '0', '-', '.', '/', ';', ',', '=', '&', '?', '#', '_', '~', '%', '%2', '%41', '%zz', ':', '@', '!', '*'];

const literal = fc.string({ unit: fc.constantFrom('a', 'b', '0', '-', '.', '/', ';', ',', '=', '_', '~', ':'), minLength: 0, maxLength: 4 });

const expression = (index: number) =>
  fc
    .record({
      operator: fc.constantFrom(...OPERATORS),
      variables: fc.array(fc.constantFrom('', '*', ':3'), { minLength: 1, maxLength: 3 }),
    })
    .map(({ operator, variables }) => `{${operator}${variables.map((modifier, i) => `v${index}x${i}${modifier}`).join(',')}}`);

/** A template the framework accepts: literals and 1 to 4 expressions, each expression with 1 to 3 variables. */
export const template = fc
  .tuple(literal, fc.array(fc.tuple(fc.nat({ max: 1000 }), literal), { minLength: 1, maxLength: 4 }))
  .chain(([head, parts]) =>
    fc.tuple(...parts.map(([, tail], index) => expression(index).map((expr) => expr + tail))).map((exprs) => `${head}${exprs.join('')}`),
  )
  .filter((body) => {
    try {
      UriTemplate.parse(`t://${body}`);
      return true;
    } catch {
      return false;
    }
  });

/** A run of the same piece, repeated: what makes a backtracking matcher explode. */
const run = (maxRepeat: number) => fc.tuple(fc.constantFrom(...URI_PIECES), fc.integer({ min: 1, max: maxRepeat })).map(([piece, n]) => piece.repeat(n));

/**
 * The part of a URI after a template's scheme: short mixes of separators, long runs of one
 * (up to past the 8 KiB bound), and near-misses.
 */
export const uriTail = fc.oneof(
  { weight: 4, arbitrary: fc.array(run(4), { maxLength: 12 }).map((pieces) => pieces.join('')) },
  { weight: 3, arbitrary: fc.array(run(64), { minLength: 1, maxLength: 4 }).map((pieces) => pieces.join('')) },
  { weight: 1, arbitrary: fc.array(run(3000), { minLength: 1, maxLength: 4 }).map((pieces) => pieces.join('')) },
);

// The characters each operator separates or prefixes with: what a URI aimed at it repeats.
const OPERATOR_PIECES: Record<string, readonly string[]> = {
  '': [',', 'a', '-'],
  '+': [',', '/', 'a'],
  '#': ['#', ',', 'a'],
  '.': ['.', 'a'],
  '/': ['/', 'a'],
  ';': [';', '=', 'a', ','],
  '?': ['?', '&', '=', 'a'],
  '&': ['&', '=', 'a'],
};

/**
 * URIs aimed at one template body: its literals kept (so matching gets past them), each expression
 * replaced by runs of the characters its operator splits on (short, or thousands long), then a
 * character that makes the whole URI miss, or nothing.
 */
export function uriFor(body: string): fc.Arbitrary<string> {
  const tokens = body.split(/(\{[^}]*\})/).filter((token) => token !== '');
  const pieces = tokens.map((token) => {
    if (!token.startsWith('{')) return fc.oneof({ weight: 9, arbitrary: fc.constant(token) }, { weight: 1, arbitrary: fc.constant('') });
    const operator = /^[+#./;?&]/.test(token.slice(1)) ? token.charAt(1) : '';
    const chars = [...OPERATOR_PIECES[operator], operator === '' ? ',' : operator];
    const runOf = (max: number) => fc.tuple(fc.constantFrom(...chars), fc.integer({ min: 1, max })).map(([c, n]) => c.repeat(n));
    return fc.oneof(
      { weight: 3, arbitrary: fc.array(runOf(3), { maxLength: 8 }).map((runs) => runs.join('')) },
      { weight: 3, arbitrary: runOf(64) },
      { weight: 1, arbitrary: runOf(5000) },
    );
  });
  return fc.tuple(fc.tuple(...pieces), fc.constantFrom('', '/', '?', '#', 'x', '%', '\u00e9')).map(([parts, tail]) => parts.join('') + tail);
}

// ---------------------------------------------------------------------------------------------
// JSON-RPC envelopes

/** Ids as clients send them, and as hostile ones do. */
export const id = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: -1000, max: 1_000_000 }) },
  { weight: 3, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(2 ** 53 + 2, -0, 1.5, null, true, {}, [], '', '__proto__', 'constructor') },
);

/** A value that is a valid request id (what must be answered exactly once). */
export function isValidId(value: unknown): value is string | number {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

const names = fc.constantFrom(
  'echo',
  'shape',
  'route',
  'slow',
  'broken',
  'crash',
  'writer',
  'proto_rule',
  HIDDEN.tool,
  HIDDEN.taskTool,
  HIDDEN.headerTool,
  UNKNOWN.tool,
  'chat',
  HIDDEN.prompt,
);

const shapeArguments = fc.record(
  {
    name: fc.oneof(fc.constantFrom('a', 'ok-name', 'Bad Name', ''), fc.string({ maxLength: 10 })),
    colour: fc.constantFrom<unknown>('red', 'green', 'blue', 1),
    origin: fc.oneof(fc.record({ x: fc.integer({ min: -2000, max: 2000 }), y: fc.integer() }), fc.jsonValue({ maxDepth: 2 })),
    path: fc.array(fc.record({ x: fc.integer({ min: -10, max: 10 }), y: fc.integer() }), { maxLength: 20 }),
    closed: fc.oneof(fc.boolean(), fc.constant<unknown>('yes')),
  },
  { requiredKeys: [] },
);

const toolArguments = fc.oneof(
  { weight: 3, arbitrary: fc.record({ text: fc.oneof(fc.string({ maxLength: 20 }), fc.integer()) }) },
  { weight: 3, arbitrary: shapeArguments },
  {
    weight: 2,
    arbitrary: fc.record({ region: fc.string({ maxLength: 8 }), priority: fc.oneof(fc.integer(), fc.string({ maxLength: 3 })) }, { requiredKeys: [] }),
  },
  { weight: 1, arbitrary: fc.record({ zzSecretRegion: fc.string({ maxLength: 8 }) }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

const taskField = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: fc.record({ ttl: fc.oneof(fc.integer({ min: -5, max: 100_000 }), fc.string({ maxLength: 3 })) }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(5, 'x', null, []) },
);

const uri = fc.oneof(
  fc.constantFrom('open://readme', 'open://items/1', HIDDEN.resource, 'secret://zz/7', UNKNOWN.resource),
  uriTail.map((tail) => `open://items/${tail}`),
  uriTail.map((tail) => `t0://${tail}`),
  fc.string({ maxLength: 30 }),
);

/** Params for each method: mostly well-shaped, so requests reach deep, sometimes anything. */
const paramsFor: Record<string, fc.Arbitrary<unknown>> = {
  'tools/call': fc.record({ name: names, arguments: toolArguments, task: taskField }, { requiredKeys: ['name'] }),
  'prompts/get': fc.record(
    { name: names, arguments: fc.oneof(fc.record({ topic: fc.string({ maxLength: 6 }) }), fc.jsonValue({ maxDepth: 2 })) },
    { requiredKeys: ['name'] },
  ),
  'resources/read': fc.record({ uri }),
  'resources/subscribe': fc.record({ uri }),
  'resources/unsubscribe': fc.record({ uri }),
  'completion/complete': fc.record({
    ref: fc.oneof(
      fc.record({ type: fc.constant('ref/prompt'), name: names }),
      fc.record({ type: fc.constant('ref/resource'), uri: fc.oneof(uri, fc.constantFrom(HIDDEN.template, 'open://items/{id}')) }),
    ),
    argument: fc.record({ name: fc.constantFrom('topic', 'id', 'x'), value: fc.string({ maxLength: 4 }) }),
  }),
  'tasks/get': fc.record({ taskId: fc.string({ maxLength: 40 }) }),
  'tasks/result': fc.record({ taskId: fc.string({ maxLength: 40 }) }),
  'tasks/cancel': fc.record({ taskId: fc.string({ maxLength: 40 }) }),
  'tasks/list': fc.record({ cursor: fc.string({ maxLength: 10 }) }, { requiredKeys: [] }),
  'tools/list': fc.record({ cursor: fc.string({ maxLength: 10 }) }, { requiredKeys: [] }),
  'logging/setLevel': fc.record({ level: fc.constantFrom('debug', 'info', 'bogus') }),
  'subscriptions/listen': fc.record({
    resourceSubscriptions: fc.array(uri, { maxLength: 3 }),
    taskIds: fc.array(fc.string({ maxLength: 10 }), { maxLength: 2 }),
  }),
};

const METHODS = [
  ...Object.keys(paramsFor),
  'ping',
  'initialize',
  'server/discover',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'notifications/initialized',
  'notifications/cancelled',
];

// Calls most, where most of the pipeline is; every other method too, and names nobody serves.
const method = fc.oneof(
  { weight: 6, arbitrary: fc.constant('tools/call') },
  { weight: 9, arbitrary: fc.constantFrom(...METHODS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 16 }) },
);

function withMeta(params: unknown, meta: unknown): unknown {
  if (meta === undefined) return params;
  const base = params !== null && typeof params === 'object' && !Array.isArray(params) ? params : {};
  return { ...base, _meta: meta };
}

/** The `_meta` of a 2026-07-28 request: mostly right, sometimes short of a piece or wrong. */
export const modernMeta = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      'io.modelcontextprotocol/protocolVersion': fc.constant(MODERN),
      'io.modelcontextprotocol/clientCapabilities': fc.constantFrom<unknown>({}, { extensions: { 'io.modelcontextprotocol/tasks': {} } }, { elicitation: {} }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        'io.modelcontextprotocol/protocolVersion': fc.constantFrom<unknown>(MODERN, '2099-01-01', 7, '2025-11-25'),
        'io.modelcontextprotocol/clientCapabilities': fc.constantFrom<unknown>({}, null, 'x', []),
      },
      { requiredKeys: [] },
    ),
  },
);

export interface Envelope {
  readonly message: unknown;
  /** The id a request carries, when it is one that must be answered. */
  readonly requestId?: string | number;
}

/** One JSON-RPC message; `meta` decides whether it claims the 2026-07-28 era. */
export function envelope(meta: fc.Arbitrary<unknown>): fc.Arbitrary<Envelope> {
  return fc
    .record({
      method,
      id: fc.option(id, { nil: undefined, freq: 6 }),
      meta,
      junk: fc.boolean(),
      params: fc.jsonValue({ maxDepth: 2 }),
    })
    .chain(({ method: name, id: requestId, meta: m, junk, params }) =>
      (junk || !Object.hasOwn(paramsFor, name) ? fc.constant(params) : paramsFor[name]).map((shaped) => {
        const message: Record<string, unknown> = { jsonrpc: '2.0', method: name };
        if (requestId !== undefined) message.id = requestId;
        const withMetaParams = withMeta(shaped, m);
        if (withMetaParams !== undefined) message.params = withMetaParams;
        return { message, requestId: isValidId(requestId) ? requestId : undefined };
      }),
    );
}

/** Not a message at all, or almost one. */
export const garbage = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    '',
    '{',
    '[]',
    '[{}]',
    'null',
    '{"jsonrpc":"2.0"}',
    '{"jsonrpc":"2.0","id":1}',
    '{"jsonrpc":"1.0","id":1,"method":"ping"}',
    '\u0000',
    '{"a":'.repeat(50),
  ),
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value) ?? ''),
);

/** Who calls: nobody, or a principal with some scopes and roles (never the admin role, which sees the hidden items). */
export const caller = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  {
    weight: 1,
    arbitrary: fc.record({
      subject: fc.constantFrom('ada', 'grace'),
      scopes: fc.subarray(['read', 'write', 'constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']),
      claims: fc.constantFrom<Record<string, unknown>>({}, { roles: ['user'] }, { roles: 'admin' }, { roles: ['constructor', '__proto__'] }, { roles: null }),
    }),
  },
);
