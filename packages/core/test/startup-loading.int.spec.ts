import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

// What a server loads before its first request, checked in a fresh process on the built package
// (jest has its own module registry). Each module named here costs milliseconds and megabytes.
// The package folder: its `main` (the bundled entry), what an app's require('@mcpkit/core') gets.
const CORE = join(__dirname, '..');
// The file `@mcpkit/core/compile-cache` resolves to, as shipped.
const manifest = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { exports: Record<string, { default: string }> };
const COMPILE_CACHE = join(__dirname, '..', manifest.exports['./compile-cache'].default);
const PHONE = require.resolve('libphonenumber-js/max', { paths: [dirname(require.resolve('class-validator'))] });

function run(script: string): unknown {
  const out = execFileSync(process.execPath, ['-e', script], {
    cwd: join(__dirname, '..'),
    encoding: 'utf8',
    timeout: 20_000,
    env: { ...process.env, LOG_LEVEL: 'warn' },
  });
  return JSON.parse(out);
}

// A server that opted in to the start-up acceleration (`@mcpkit/core/compile-cache` first), as
// the example apps and `mcpkit start` do.
const APP = `
  require(${JSON.stringify(COMPILE_CACHE)});
  const { createApp, Tool } = require(${JSON.stringify(CORE)});
  const { IsString, IsPhoneNumber } = require('class-validator');
  class Input {}
  IsString()(Input.prototype, 'text');
  class Contact {}
  IsPhoneNumber()(Contact.prototype, 'phone');
  // What TypeScript emits for \`phone: string\`: a field whose schema would say nothing is refused.
  Reflect.defineMetadata('design:type', String, Contact.prototype, 'phone');
  class Tools {
    echo(input) { return input.text; }
    call(input) { return 'calling ' + input.phone; }
  }
  Reflect.defineMetadata('design:paramtypes', [Input], Tools.prototype, 'echo');
  Reflect.defineMetadata('design:paramtypes', [Contact], Tools.prototype, 'call');
  Tool({ description: 'echo' })(Tools.prototype, 'echo', Object.getOwnPropertyDescriptor(Tools.prototype, 'echo'));
  Tool({ description: 'call' })(Tools.prototype, 'call', Object.getOwnPropertyDescriptor(Tools.prototype, 'call'));
  const app = createApp({ name: 't', version: '1', providers: [Tools] });
  const loaded = (part) => Object.keys(require.cache).some((file) => file.includes(part));
`;

describe('importing a package changes nothing outside mcpkit', () => {
  let cacheDir: string;
  beforeAll(() => {
    cacheDir = mkdtempSync(join(tmpdir(), 'mcpkit-plain-'));
  });
  afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

  // With Node's compile cache on (as a user may turn it on with NODE_COMPILE_CACHE): nothing of
  // mcpkit's may be written there unless the process opted in.
  it.each(['core', 'http', 'stdio', 'fastify'])('@mcpkit/%s: no loader hook, no stand-ins, no global, no file written', (name) => {
    const out = execFileSync(
      process.execPath,
      [
        '-e',
        `const M = require('node:module');
        const load = M._load;
        const symbols = () => Object.getOwnPropertySymbols(globalThis).map(String).filter((s) => s.includes('mcpkit'));
        require(${JSON.stringify(join(CORE, '..', name))});
        const cv = require('class-validator');
        const { isProxy } = require('node:util').types;
        process.stdout.write(JSON.stringify({ hooked: M._load !== load, symbols: symbols(), standIns: [cv.isEmail, cv.IsEmail, cv.validate].filter(isProxy).length }));`,
      ],
      { cwd: CORE, encoding: 'utf8', timeout: 20_000, env: { ...process.env, NODE_COMPILE_CACHE: cacheDir, LOG_LEVEL: 'warn' } },
    );
    expect(JSON.parse(out)).toEqual({ hooked: false, symbols: [], standIns: 0 });
    expect((readdirSync(cacheDir, { recursive: true }) as string[]).filter((file) => file.includes('mcpkit'))).toEqual([]);
  });
});

describe('start-up module loading (plain import)', () => {
  // A raw @Field({ schema }) part is checked at start-up (a bad one is a DefinitionError); made
  // of keywords core checks itself, that check needs no ajv (~200 ms of CPU to load it and
  // compile the 2020-12 meta-schema). ajv loads at the first call, and enforces the part.
  it('an app whose DTO has a raw @Field({ schema }) part loads no ajv before its first call, and the part holds', () => {
    const result = run(`
      const { createApp, Tool, Field } = require(${JSON.stringify(CORE)});
      const { IsOptional } = require('class-validator');
      class Input {}
      IsOptional()(Input.prototype, 'code');
      Field({ nullable: true, schema: { anyOf: [{ type: 'string', minLength: 1 }, { type: 'integer' }] } })(Input.prototype, 'code');
      class Tools { take(input) { return 'code ' + input.code; } }
      Reflect.defineMetadata('design:paramtypes', [Input], Tools.prototype, 'take');
      Tool({ description: 'take' })(Tools.prototype, 'take', Object.getOwnPropertyDescriptor(Tools.prototype, 'take'));
      const app = createApp({ name: 't', version: '1', providers: [Tools] });
      const ajv = () => Object.keys(require.cache).some((file) => file.includes('/ajv/'));
      const before = ajv();
      const client = app.connect({ kind: 'stdio' });
      const call = (id, code) => client.receive({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'take', arguments: { code } } });
      const opening = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
      Promise.resolve(client.receive(opening))
        .then(() => Promise.all([call(1, 7), call(2, ''), call(3, null)]))
        .then((answers) => process.stdout.write(JSON.stringify({ before, after: ajv(), errors: answers.map((answer) => answer?.result?.isError === true) })));
    `) as { before: boolean; after: boolean; errors: boolean[] };
    expect(result).toEqual({ before: false, after: true, errors: [false, true, false] });
  });
});

describe('start-up module loading (the opt-in)', () => {
  it('an app loads neither class-transformer (no DTO uses its decorators), ajv, fastify, validator.js nor the phone metadata before its first call', () => {
    const loaded = run(`${APP}
      process.stdout.write(JSON.stringify({
        classTransformer: Object.keys(require.cache).some((file) => /class-transformer\\/cjs\\/index\\.js$/.test(file)),
        ajv: loaded('/ajv/'), fastify: loaded('/fastify/'), phone: loaded('/libphonenumber-js/'), validator: loaded('/validator/'),
      }));`);
    expect(loaded).toEqual({ classTransformer: false, ajv: false, fastify: false, phone: false, validator: false });
  });

  it('@IsPhoneNumber still validates: the metadata loads on first use, and a direct require gets the real module', () => {
    const result = run(`${APP}
      const { isPhoneNumber, validateSync } = require('class-validator');
      const contact = (phone) => Object.assign(new Contact(), { phone });
      const before = loaded('/libphonenumber-js/');
      const checks = { valid: isPhoneNumber('+14155552671'), invalid: isPhoneNumber('+1 123'), region: isPhoneNumber('020 7946 0958', 'GB') };
      const decorator = [validateSync(contact('+14155552671')).length, validateSync(contact('12')).length];
      const phone = require(${JSON.stringify(PHONE)});
      process.stdout.write(JSON.stringify({
        before, ...checks, decorator,
        realModule: require.cache[${JSON.stringify(PHONE)}].exports === phone && phone('+14155552671').country,
        parse: phone.parsePhoneNumber('+442079460958').country,
      }));`);
    expect(result).toEqual({ before: false, valid: true, invalid: false, region: true, decorator: [0, 1], realModule: 'US', parse: 'GB' });
  });
});

describe('start-up module loading: validator.js and pino', () => {
  it('validator.js loads when a check first runs, and the checks give the same answers', () => {
    const result = run(`${APP}
      const { isEmail, isUUID, isStrongPassword, validateSync, IsEmail } = require('class-validator');
      const before = loaded('/validator/lib/');
      class Mail {}
      IsEmail()(Mail.prototype, 'to');
      const checks = [isEmail('a@b.co'), isEmail('nope'), isUUID('9b2f1c1e-3c7a-4b59-9a5e-1f0c2d3e4f5a'), isStrongPassword('Ab1!abcdef'), isStrongPassword('weak')];
      const errors = [validateSync(Object.assign(new Mail(), { to: 'a@b.co' })).length, validateSync(Object.assign(new Mail(), { to: 'x' })).length];
      process.stdout.write(JSON.stringify({ before, after: loaded('/validator/lib/'), checks, errors }));`);
    expect(result).toEqual({ before: false, after: true, checks: [true, false, true, true, false], errors: [0, 1] });
  });

  it('a validation schema (registerSchema) still becomes metadata: its transformer loads when the first schema is registered', () => {
    const result = run(`
      require(${JSON.stringify(COMPILE_CACHE)});
      const { registerSchema, getMetadataStorage } = require('class-validator');
      const loaded = () => Object.keys(require.cache).some((file) => /ValidationSchemaToMetadataTransformer\\.js$/.test(file));
      const before = loaded();
      registerSchema({ name: 'order', properties: { email: [{ type: 'isEmail' }], quantity: [{ type: 'min', constraints: [1] }] } });
      // (class-validator 0.15's validateSync by schema name throws on its own, transformer or not.)
      const rules = getMetadataStorage().validationMetadatas.get('order').map((rule) => rule.propertyName + ':' + rule.type).sort();
      process.stdout.write(JSON.stringify({ before, after: loaded(), rules }));`);
    expect(result).toEqual({ before: false, after: true, rules: ['email:isEmail', 'quantity:min'] });
  });

  it("class-transformer's transformer loads at its first use, and plainToInstance gives the same instances", () => {
    const result = run(`
      require(${JSON.stringify(COMPILE_CACHE)});
      require('reflect-metadata');
      const { plainToInstance, Type, Transform } = require('class-transformer');
      const loaded = () => Object.keys(require.cache).some((file) => /TransformOperationExecutor\\.js$/.test(file));
      const before = loaded();
      class Line { }
      Transform(({ value }) => String(value).toUpperCase())(Line.prototype, 'sku');
      class Order { constructor() { this.note = 'none'; } }
      Type(() => Line)(Order.prototype, 'lines');
      Type(() => Date)(Order.prototype, 'at');
      const order = plainToInstance(Order, { lines: [{ sku: 'ab1' }], at: '2026-12-02T00:00:00.000Z' }, { exposeDefaultValues: true });
      process.stdout.write(JSON.stringify({
        before, after: loaded(), line: order.lines[0] instanceof Line, sku: order.lines[0].sku,
        date: order.at instanceof Date && order.at.toISOString(), note: order.note,
      }));`);
    expect(result).toEqual({ before: false, after: true, line: true, sku: 'AB1', date: '2026-12-02T00:00:00.000Z', note: 'none' });
  });

  it('pino loads without its destinations and transports, and redact, multistream and destination still work', () => {
    const result = run(`
      require(${JSON.stringify(COMPILE_CACHE)});
      const pino = require('pino');
      const loaded = (part) => Object.keys(require.cache).some((file) => file.includes(part));
      const before = { sonicBoom: loaded('/sonic-boom/'), threadStream: loaded('/thread-stream/'), redact: loaded('/@pinojs/redact/') };
      const lines = [];
      const strip = (line) => JSON.parse(line);
      pino({ redact: ['secret.token'] }, { write: (line) => lines.push(strip(line)) }).info({ secret: { token: 't', user: 'u' } }, 'redacted');
      pino({}, pino.multistream([{ stream: { write: (line) => lines.push(strip(line)) } }])).info('through multistream');
      const destination = pino.destination({ dest: ${JSON.stringify(join(tmpdir(), `mcpkit-pino-${process.pid}.log`))}, sync: true });
      pino(destination).info('to a file');
      const SonicBoom = require(require.resolve('sonic-boom', { paths: [require('path').dirname(require.resolve('pino'))] }));
      process.stdout.write(JSON.stringify({
        before, msgs: lines.map((line) => line.msg), secret: lines[0].secret,
        file: require('fs').readFileSync(destination.file, 'utf8').includes('to a file'),
        sonicBoom: destination instanceof SonicBoom, transport: typeof pino.transport,
      }));
      require('fs').rmSync(destination.file);`);
    expect(result).toEqual({
      before: { sonicBoom: false, threadStream: false, redact: false },
      msgs: ['redacted', 'through multistream'],
      secret: { token: '[Redacted]', user: 'u' },
      file: true,
      sonicBoom: true,
      transport: 'function',
    });
  });
});

describe('start-up module loading: the default logger', () => {
  it('writes request lines at info without loading pino, and loads it for the first other line', () => {
    const child = spawnSync(
      process.execPath,
      [
        '-e',
        `${APP}
        const connection = app.connect({ kind: 'stdio' });
        const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } };
        (async () => {
          await connection.receive(init);
          await connection.receive({ jsonrpc: '2.0', method: 'notifications/initialized' });
          const list = await connection.receive({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
          const before = loaded('/pino/');
          app.logger.warn({ detail: { n: 1 } }, 'a warning');
          process.stdout.write(JSON.stringify({ tools: list.result.tools.length, before, after: loaded('/pino/') }));
        })();`,
      ],
      { cwd: join(__dirname, '..'), encoding: 'utf8', timeout: 20_000, env: { ...process.env, LOG_LEVEL: 'info' } },
    );
    expect(JSON.parse(child.stdout)).toEqual({ tools: 2, before: false, after: true });
    const lines = child.stderr
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toEqual([
      // initialize has its request line too, on the same fast path.
      expect.objectContaining({ level: 30, name: 't', transport: 'stdio', rpcId: 1, method: 'initialize', outcome: 'ok', msg: 'request' }),
      expect.objectContaining({ level: 30, name: 't', transport: 'stdio', rpcId: 2, method: 'tools/list', outcome: 'ok', msg: 'request' }),
      expect.objectContaining({ level: 40, name: 't', detail: { n: 1 }, msg: 'a warning' }),
    ]);
  });
});

// The names of the modules class-validator's decorators.js re-exports are kept beside Node's
// compile cache (Node ≥ 22.8 tells where it is): a first start records them, later ones use them.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const hasCompileCacheDir = typeof (require('node:module') as { getCompileCacheDir?: unknown }).getCompileCacheDir === 'function';

describe('start-up module loading: decorators on first use (with the compile cache)', () => {
  let cacheDir: string;
  beforeEach(() => {
    cacheDir = mkdtempSync(join(tmpdir(), 'mcpkit-startup-'));
  });
  afterEach(() => rmSync(cacheDir, { recursive: true, force: true }));

  const START = `
    require(${JSON.stringify(COMPILE_CACHE)});
    const cv = require('class-validator');
    const count = () => Object.keys(require.cache).filter((file) => /[\\\\/]class-validator[\\\\/]/.test(file)).length;
    const atStart = count();
    class Order {}
    cv.IsEmail()(Order.prototype, 'email');
    cv.IsInt()(Order.prototype, 'quantity');
    cv.Min(1)(Order.prototype, 'quantity');
    cv.IsOptional()(Order.prototype, 'note');
    cv.MaxLength(5)(Order.prototype, 'note');
    const verdict = (order) => cv.validateSync(Object.assign(new Order(), order)).map((error) => Object.keys(error.constraints).sort().join('+'));
    const verdicts = [verdict({ email: 'a@b.co', quantity: 2 }), verdict({ email: 'x', quantity: 0, note: 'too long' }), verdict({ email: 'a@b.co', quantity: 1.5 })];
    const names = Object.keys(cv).sort();
  `;

  function start(): { atStart: number; verdicts: string[][]; names: string[] } {
    const out = execFileSync(process.execPath, ['-e', `${START}; process.stdout.write(JSON.stringify({ atStart, verdicts, names }))`], {
      cwd: join(__dirname, '..'),
      encoding: 'utf8',
      timeout: 20_000,
      env: { ...process.env, NODE_COMPILE_CACHE: cacheDir },
    });
    return JSON.parse(out) as { atStart: number; verdicts: string[][]; names: string[] };
  }

  const namesFiles = () => (readdirSync(cacheDir, { recursive: true }) as string[]).filter((file) => /mcpkit-exports-class-validator-/.test(file));

  (hasCompileCacheDir ? it : it.skip)('a later start loads only the decorators the app uses, with the same exports and the same verdicts', () => {
    const first = start();
    expect(namesFiles()).toHaveLength(1);
    const second = start();
    expect(first.atStart).toBeGreaterThan(100);
    // The entry alone: its validator, container, errors and decorators wait for their first use.
    expect(second.atStart).toBe(1);
    expect(second.names).toEqual(first.names);
    expect(second.verdicts).toEqual(first.verdicts);
    expect(first.verdicts).toEqual([[], ['isEmail', 'min', 'maxLength'], ['isInt']]);
  });

  type Kept = Record<string, Record<string, { file: string; stamp: string; names: string[] }>>;
  const keptFile = () => join(cacheDir, namesFiles()[0]);
  // The names recorded for decorators.js's require of IsEmail (beside those of the entry's requires).
  const emailOf = (kept: Kept) => Object.values(kept).find((requires) => requires['./string/IsEmail'] !== undefined)!['./string/IsEmail'];
  const alter = (change: (emailModule: { file: string; stamp: string; names: string[] }) => void) => {
    const kept = JSON.parse(readFileSync(keptFile(), 'utf8')) as Kept;
    change(emailOf(kept));
    writeFileSync(keptFile(), JSON.stringify(kept));
  };
  const VERDICTS = [[], ['isEmail', 'min', 'maxLength'], ['isInt']];

  (hasCompileCacheDir ? it : it.skip)('names that do not match the module as loaded are dropped, and the start still works', () => {
    start();
    alter((module) => module.names.push('notAnExport'));
    expect(start().verdicts).toEqual(VERDICTS);
    expect(namesFiles()).toEqual([]);
  });

  (hasCompileCacheDir ? it : it.skip)('a names file with a name twice is ignored (and written anew)', () => {
    start();
    alter((module) => module.names.push(module.names[0]));
    const again = start();
    expect(again.verdicts).toEqual(VERDICTS);
    expect(again.atStart).toBeGreaterThan(100);
    expect(start().atStart).toBeLessThan(50);
  });

  (hasCompileCacheDir ? it : it.skip)('a module file changed since the names were recorded (patched in place) has them recorded again', () => {
    const first = start();
    const kept = JSON.parse(readFileSync(keptFile(), 'utf8')) as Kept;
    const emailModule = emailOf(kept);
    // As if patched: the recorded state of the file no longer matches it.
    alter((module) => (module.stamp = `${module.stamp}0`));
    expect(emailModule.file).toMatch(/IsEmail\.js$/);
    const again = start();
    expect(again.atStart).toBeGreaterThan(100);
    expect(again.names).toEqual(first.names);
  });

  (hasCompileCacheDir ? it : it.skip)('a names file that is not JSON of names is ignored', () => {
    start();
    const [file] = namesFiles();
    writeFileSync(join(cacheDir, file), '{"not":"names"');
    expect(start().verdicts).toEqual(VERDICTS);
  });
});

describe("start-up: core's own code kept after start-up (with the compile cache)", () => {
  let cacheDir: string;
  beforeEach(() => {
    cacheDir = mkdtempSync(join(tmpdir(), 'mcpkit-core-code-'));
  });
  afterEach(() => rmSync(cacheDir, { recursive: true, force: true }));

  // A server's start: the compile cache first, then an app, its tools/list, and exit.
  const SERVE = `
    ${APP}
    const connection = app.connect({ kind: 'stdio' });
    connection.receive({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } })
      .then(() => connection.receive({ jsonrpc: '2.0', id: 2, method: 'tools/list' }))
      .then((answer) => process.stdout.write(JSON.stringify({ tools: answer.result.tools.map((tool) => tool.name), kept: require('node:module').Module._cache[require.resolve(${JSON.stringify(join(CORE, 'dist', 'bundle', 'core.js'))})] !== undefined })));
  `;
  function serve(extra: string[] = []): { tools: string[]; kept: boolean } {
    const out = execFileSync(process.execPath, [...extra, '-e', SERVE], {
      cwd: CORE,
      encoding: 'utf8',
      timeout: 20_000,
      env: { ...process.env, NODE_COMPILE_CACHE: cacheDir, LOG_LEVEL: 'warn' },
    });
    return JSON.parse(out) as { tools: string[]; kept: boolean };
  }
  const codeFiles = () => (readdirSync(cacheDir, { recursive: true }) as string[]).filter((file) => /mcpkit-core-.*\.v8$/.test(file));

  (hasCompileCacheDir ? it : it.skip)('the first start keeps it, later starts load from it and serve the same', () => {
    const first = serve();
    expect(codeFiles()).toHaveLength(1);
    const kept = join(cacheDir, codeFiles()[0]);
    const size = readFileSync(kept).length;
    // Well beyond the top level alone: the functions the start ran are in it.
    expect(size).toBeGreaterThan(100_000);
    expect(serve()).toEqual(first);
    expect(first).toEqual({ tools: ['echo', 'call'], kept: true });
    // Damaged or left by another build: compiled afresh, served the same, and kept anew.
    writeFileSync(kept, 'not a code cache');
    expect(serve()).toEqual(first);
    expect(readFileSync(kept).length).toBeGreaterThan(100_000);
  });

  (hasCompileCacheDir ? it : it.skip)('with --enable-source-maps (stack traces through the source map), core loads as Node loads it and keeps nothing', () => {
    expect(serve(['--enable-source-maps'])).toEqual({ tools: ['echo', 'call'], kept: true });
    expect(codeFiles()).toHaveLength(0);
  });
});
