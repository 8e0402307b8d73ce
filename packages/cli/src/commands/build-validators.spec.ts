import 'reflect-metadata';
import { ArrayUnique, IsEmail, IsString, IsUUID, Matches } from 'class-validator';
import * as coreTransport from '@mcpkit/core/transport';
import { createApp, precompiledValidatorsSource, Tool, type McpApp, type PrecompiledValidators } from '@mcpkit/core';
import { TestClient } from '@mcpkit/testing';
import { createTestbedApp } from '../../../../apps/testbed/src/app';

type Validate = ((data: unknown) => boolean) & { errors?: unknown };
type Schema = Record<string, unknown>;

/** Loads generated source as Node would, with core as the only package it may require. */
function load(source: string): PrecompiledValidators {
  const module = { exports: {} as Record<string, unknown> };
  const requireCore = (name: string): unknown => {
    if (name !== '@mcpkit/core/transport') throw new Error(`the generated module required ${name}`);
    return coreTransport;
  };
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the test's stand-in for Node's module loader
  new Function('exports', 'require', 'module', source)(module.exports, requireCore, module);
  return module.exports as unknown as PrecompiledValidators;
}

/** A seeded generator (mulberry32): the same values on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STRINGS = [
  '',
  'a',
  'hello',
  '12345',
  '1234',
  'ada@example.com',
  'not an email',
  '550e8400-e29b-41d4-a716-446655440000',
  'urn:uuid:550e8400-e29b-41d4-a716-446655440000',
  '2026-12-05T04:00:00Z',
  '2026-12-05',
  'https://example.com/x',
  'admin',
  'viewer',
  'x'.repeat(70),
  'é😀',
];
const NUMBERS = [0, 1, -1, 2.5, 5, 6, 42, 100, 101, 150, 151, -0.5, 1e21];

/** A value for `schema`: mostly of its shape, now and then of any other, to cross every keyword's edge. */
function valueFor(schema: unknown, next: () => number, depth = 0): unknown {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  const s = (typeof schema === 'object' && schema !== null ? schema : {}) as Schema;
  if (depth > 4 || next() < 0.1) return pick<unknown>([null, true, 7, 'x', [], {}, [1, 1]]);
  if (Array.isArray(s.enum) && next() < 0.7) return pick(s.enum as unknown[]);
  const types = Array.isArray(s.type)
    ? (s.type as string[])
    : typeof s.type === 'string'
      ? [s.type]
      : s.properties
        ? ['object']
        : s.items
          ? ['array']
          : ['string', 'number', 'object'];
  const type = pick(types);
  if (type === 'string') return pick(STRINGS);
  if (type === 'number') return pick(NUMBERS);
  if (type === 'integer') return Math.trunc(pick(NUMBERS));
  if (type === 'boolean') return next() < 0.5;
  if (type === 'null') return null;
  if (type === 'array') {
    const items = Array.from({ length: Math.floor(next() * 4) }, () => valueFor(s.items, next, depth + 1));
    return next() < 0.2 && items.length > 0 ? [...items, items[0]] : items;
  }
  const out: Record<string, unknown> = {};
  const properties = (s.properties ?? {}) as Record<string, unknown>;
  for (const [name, sub] of Object.entries(properties)) if (next() < 0.85) out[name] = valueFor(sub, next, depth + 1);
  if (next() < 0.1) out.unexpected = 1;
  return out;
}

class Contact {
  @IsEmail()
  email!: string;

  @IsUUID()
  id!: string;

  @Matches(/^[0-9]{5}$/)
  zip!: string;

  @IsString({ each: true })
  @ArrayUnique()
  tags!: string[];
}

class Contacts {
  @Tool({ description: 'Saves a contact' })
  save(input: Contact): string {
    return `saved ${input.email}`;
  }
}

function contactsApp(validators?: PrecompiledValidators): McpApp {
  return createApp({ name: 'contacts', version: '1.0.0', providers: [Contacts], validators, logger: undefined });
}

describe('precompiled validators (mcpkit build-validators)', () => {
  const testbed = createTestbedApp({ TOOLS: '3' });
  const schemas = testbed.settings.validators.startupSchemas;
  const precompiled = load(precompiledValidatorsSource(testbed, 'mcpkit build-validators dist/app.js --out v.js').source);

  it("holds every schema the testbed validates with at start-up, and needs no package but core's entry", () => {
    expect(schemas.length).toBeGreaterThan(5);
    for (const schema of schemas) expect(typeof precompiled[coreSchemaKey(schema)]).toBe('function');
  });

  it('accepts and rejects exactly what runtime ajv does, with the same errors, on values drawn from each schema', () => {
    const runtime = coreTransportFactory();
    const next = random(31);
    let compared = 0;
    let rejected = 0;
    for (const schema of schemas) {
      const standalone = precompiled[coreSchemaKey(schema)] as Validate;
      const compiled = runtime.compile(schema) as Validate;
      for (let i = 0; i < 150; i++) {
        const value = valueFor(schema, next);
        const verdict = compiled(value);
        expect([JSON.stringify(value), standalone(value)]).toEqual([JSON.stringify(value), verdict]);
        expect(standalone.errors ?? null).toEqual(compiled.errors ?? null);
        compared++;
        if (!verdict) rejected++;
      }
    }
    // Both sides of every keyword were crossed, not only one.
    expect(rejected).toBeGreaterThan(compared / 10);
    expect(rejected).toBeLessThan(compared - compared / 10);
  });

  it('checks formats, patterns and the linear uniqueItems as runtime ajv does, in a Worker-style module', async () => {
    const module = load(precompiledValidatorsSource(contactsApp(), 'mcpkit build-validators --out v.js').source);
    const client = await TestClient.connect(contactsApp(module));
    const good = { email: 'ada@example.com', id: '550e8400-e29b-41d4-a716-446655440000', zip: '12345', tags: ['a', 'b'] };
    expect((await client.callTool('save', good)).isError).toBeFalsy();
    for (const [bad, says] of [
      [{ ...good, email: 'nope' }, 'email'],
      [{ ...good, zip: '1234' }, 'pattern'],
      [{ ...good, tags: ['a', 'a'] }, 'duplicate items'],
      [{ ...good, id: 'urn:uuid:550e8400-e29b-41d4-a716-446655440000' }, 'pattern'],
    ] as const) {
      const result = await client.callTool('save', bad);
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toContain(says);
    }
    await client.close();
  });

  it('refuses at start-up a module made from other schemas, naming the command that regenerates it', () => {
    expect(() => contactsApp(precompiled)).toThrow(/MCPKIT_ERR_STALE_VALIDATORS[\s\S]*mcpkit build-validators dist\/app\.js --out v\.js/);
    const own = load(precompiledValidatorsSource(contactsApp(), 'mcpkit build-validators --out v.js').source);
    expect(() => contactsApp({ ...own, schemasHash: '0000000000000000' })).toThrow(/other schemas than this app has/);
    expect(() => contactsApp({ schemasHash: 5 } as unknown as PrecompiledValidators)).toThrow(/validators/);
  });
});

describe('precompiled validators on the keywords the testbed does not sample', () => {
  const tree = {
    type: 'object',
    required: ['root'],
    properties: { root: { $ref: '#/$defs/node' } },
    $defs: {
      node: {
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string', pattern: '^\\p{L}[\\p{L}\\p{N} ]*$' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } },
        additionalProperties: false,
      },
    },
  };
  const formats = {
    type: 'object',
    properties: {
      email: { type: 'string', format: 'email' },
      uri: { type: 'string', format: 'uri' },
      at: { type: 'string', format: 'date-time' },
      word: { type: 'string', pattern: '^\\p{Lu}\\p{Ll}+$', minLength: 2, maxLength: 4 },
      ids: { type: 'array', uniqueItems: true, items: { anyOf: [{ type: 'integer' }, { type: 'object' }] } },
    },
  };
  const large = Array.from({ length: 20_000 }, (_, i) => (i % 2 === 0 ? i : { id: i, tags: ['a', 'b'] }));
  const samples: Array<[string, object, unknown]> = [
    ['a tree', tree, { root: { name: 'Ärbre', children: [{ name: 'ß 1' }, { name: 'Ω', children: [] }] } }],
    ['a tree with a bad name deep down', tree, { root: { name: 'a', children: [{ name: 'b', children: [{ name: '1x' }] }] } }],
    ['a tree with an extra member deep down', tree, { root: { name: 'a', children: [{ name: 'b', extra: 1 }] } }],
    ['a tree 200 levels deep', tree, { root: nested(200) }],
    ['formats that hold', formats, { email: 'ada@example.com', uri: 'https://example.com/a?b#c', at: '2026-12-05T04:00:00.5+01:00', word: 'Éte' }],
    ['formats that fail', formats, { email: 'ada@', uri: 'not a uri', at: '2026-13-05T25:00:00Z', word: 'éte' }],
    ['a date-time without its offset', formats, { at: '2026-12-05T04:00:00' }],
    ['a relative uri', formats, { uri: '/a/b' }],
    ['astral letters counted as one character each', formats, { word: 'A𝒜𝒜𝒜' }],
    ['astral letters past maxLength', formats, { word: 'A𝒜𝒜𝒜𝒜' }],
    ['20 000 distinct items', formats, { ids: large }],
    ['20 000 items, the last equal to an object far before it (members reordered)', formats, { ids: [...large, { tags: ['a', 'b'], id: 1 }] }],
    ['an integer written twice', formats, { ids: [1, 2, 1.0] }],
  ];

  // One module and one run-time factory for all: each costs an app.
  const module = load(precompiledValidatorsSource(schemasApp([tree, formats]), 'x').source);
  const runtime = coreTransportFactory();
  const verdicts: boolean[] = [];

  it.each(samples)("gives runtime ajv's verdict and errors on %s", (_name, schema, value) => {
    const standalone = module[coreSchemaKey(schema)] as Validate;
    const compiled = runtime.compile(schema);
    const verdict = compiled(value);
    verdicts.push(verdict);
    expect(standalone(value)).toBe(verdict);
    expect(standalone.errors ?? null).toEqual(compiled.errors ?? null);
  });

  it('sampled both verdicts', () => {
    expect(verdicts.filter(Boolean).length).toBeGreaterThan(2);
    expect(verdicts.filter((verdict) => !verdict).length).toBeGreaterThan(2);
  });
});

function nested(depth: number): object {
  let node: object = { name: 'leaf' };
  for (let i = 0; i < depth; i++) node = { name: `n${i}`, children: [node] };
  return node;
}

function schemasApp(schemas: object[]): McpApp {
  return { settings: { validators: { startupSchemas: schemas } } } as unknown as McpApp;
}

function coreSchemaKey(schema: object): string {
  return (coreTransport as unknown as { schemaKey?: (s: object) => string }).schemaKey?.(schema) ?? keyOf(schema);
}

// The key a precompiled module exports a schema under: read back from a one-schema module.
function keyOf(schema: object): string {
  const app = { settings: { validators: { startupSchemas: [schema] } } } as unknown as McpApp;
  const source = precompiledValidatorsSource(app, 'x').source;
  return /\bexports(?:\.|\["?)(s[0-9a-f]{16})/.exec(source)![1];
}

function coreTransportFactory(): { compile(schema: object): Validate } {
  const app = createApp({ name: 'runtime', version: '1', providers: [] });
  return app.settings.validators as unknown as { compile(schema: object): Validate };
}
