import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the module object itself, to stand in for Node's compile cache
import nodeModule = require('node:module');
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { requireCached } from './cached-bundle';

type Statics = { _cache: Record<string, unknown>; getCompileCacheDir?: () => string | undefined };
const loader = nodeModule as unknown as Statics;
const registry = (nodeModule.Module as unknown as Statics)._cache;
const SIGNATURE = '/* test bundle */';

// jest runs this file in a vm context of its own, where requireCached (rightly) loads nothing
// itself; these tests run it as Node's main realm would see it.
const inMain = <T>(run: () => T): T => {
  const original = Script.prototype.runInThisContext;
  const spy = jest.spyOn(Script.prototype, 'runInThisContext').mockImplementation(function (this: Script, options) {
    const result = original.call(this, options) as unknown;
    return result === (original.call(new Script('globalThis')) as unknown) ? globalThis : result;
  });
  try {
    return run();
  } finally {
    spy.mockRestore();
  }
};

describe('requireCached', () => {
  let folder: string;
  let cacheDir: string;
  const original = loader.getCompileCacheDir;

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'mcpkit-cached-'));
    cacheDir = join(folder, 'cache');
    mkdirSync(cacheDir);
    // Node's compile cache is off under jest: pretend it is on, in this folder.
    loader.getCompileCacheDir = () => cacheDir;
  });

  afterEach(() => {
    loader.getCompileCacheDir = original;
    for (const key of Object.keys(registry)) if (key.startsWith(folder)) delete registry[key];
    rmSync(folder, { recursive: true, force: true });
  });

  function moduleFile(name: string, body: string): string {
    const file = join(folder, name);
    writeFileSync(file, `${SIGNATURE}\n${body}`);
    return file;
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const plain = (file: string) => () => require(file) as unknown;
  const load = (file: string): unknown => inMain(() => requireCached<unknown>(file, SIGNATURE, () => 'loaded by require'));

  const cacheFiles = () => readdirSync(cacheDir).filter((name) => name.endsWith('.v8'));
  const waitFor = async (done: () => boolean) => {
    for (let i = 0; i < 60 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  };

  it('loads a module once, with CommonJS globals and its own require', () => {
    const helper = moduleFile('helper.js', 'exports.name = "helper";');
    const file = moduleFile(
      'main.js',
      `exports.here = __filename; exports.dir = __dirname; exports.helper = require('./helper.js').name; exports.strict = this === exports;`,
    );
    const first = load(file) as Record<string, unknown>;
    expect(first).toEqual({ here: file, dir: folder, helper: 'helper', strict: true });
    expect(load(file)).toBe(first);
    // In Node's registry, so that a plain require of it gets the same instance.
    expect((registry[file] as { exports: unknown; loaded: boolean }).exports).toBe(first);
    expect((registry[file] as { loaded: boolean }).loaded).toBe(true);
    expect(existsSync(helper)).toBe(true);
  });

  it('keeps the compiled code after start-up and loads from it the next time', async () => {
    const file = moduleFile('kept.js', 'exports.twice = (n) => n * 2;');
    load(file);
    await waitFor(() => cacheFiles().length > 0);
    expect(cacheFiles()).toHaveLength(1);
    delete registry[file];
    expect((load(file) as { twice(n: number): number }).twice(21)).toBe(42);
  });

  it("deletes what an earlier build of the same file kept once it keeps its own, and nothing else's", async () => {
    const file = moduleFile('upgraded.js', 'exports.v = 1;');
    load(file);
    await waitFor(() => cacheFiles().length > 0);
    const [first] = cacheFiles();
    const stem = first.slice(0, first.lastIndexOf('-') + 1);
    // Another file's cache, one whose name only starts alike, and a temporary file: all stay.
    const others = ['mcpkit-other-abc-12.v8', `${stem}12.v8.999.tmp`, `${stem}x.v8`];
    for (const name of others) writeFileSync(join(cacheDir, name), 'x');
    delete registry[file];
    writeFileSync(file, `${SIGNATURE}\nexports.v = 2; // a longer build`);
    expect((load(file) as { v: number }).v).toBe(2);
    await waitFor(() => !cacheFiles().includes(first));
    const left = readdirSync(cacheDir);
    expect(left).not.toContain(first);
    expect(left.filter((name) => name.startsWith(stem) && name.endsWith('.v8') && !others.includes(name))).toHaveLength(1);
    for (const name of others) expect(left).toContain(name);
  });

  it('compiles afresh, and keeps new code, when the kept code is damaged or belongs to another source of the same size', async () => {
    const file = moduleFile('damaged.js', 'exports.value = "first";');
    load(file);
    await waitFor(() => cacheFiles().length > 0);
    const kept = join(cacheDir, cacheFiles()[0]);
    const good = readFileSync(kept);
    // Damaged, size unchanged (V8's release builds would run it): in the source copy, in the code,
    // and in the code's mirror.
    for (const at of [20, good.length >> 1, good.length - 12]) {
      const damaged = Buffer.from(good);
      damaged.fill(0xff, at, at + 8);
      writeFileSync(kept, damaged);
      delete registry[file];
      expect((load(file) as { value: string }).value).toBe('first');
      await waitFor(() => !readFileSync(kept).equals(damaged));
      expect(readFileSync(kept).equals(damaged)).toBe(false);
    }
    // Another build of the same length and date (an mtime-keeping deploy): its own code, not the kept one.
    const { atime, mtime } = statSync(file);
    writeFileSync(file, `${SIGNATURE}\nexports.value = "other";`);
    utimesSync(file, atime, mtime);
    delete registry[file];
    expect((load(file) as { value: string }).value).toBe('other');
  });

  it("lets the module's own error through and leaves nothing half-loaded", () => {
    const file = moduleFile('throws.js', 'throw new Error("broken module");');
    expect(() => load(file)).toThrow('broken module');
    expect(registry[file]).toBeUndefined();
  });

  it("uses the plain require without Node's compile cache, outside the main realm, and for a file that is missing or not the bundle", () => {
    const file = moduleFile('plain.js', 'exports.plain = true;');
    // Under jest: another realm.
    expect(requireCached(file, SIGNATURE, plain(file))).toEqual({ plain: true });
    loader.getCompileCacheDir = () => undefined;
    expect(load(file)).toBe('loaded by require');
    loader.getCompileCacheDir = () => cacheDir;
    expect(load(join(folder, 'missing.js'))).toBe('loaded by require');
    const stranger = join(folder, 'stranger.js');
    writeFileSync(stranger, 'exports.stranger = true;');
    expect(load(stranger)).toBe('loaded by require');
    expect(cacheFiles()).toHaveLength(0);
  });
});
