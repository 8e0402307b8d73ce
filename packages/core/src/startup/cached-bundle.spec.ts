import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the module object itself, to stand in for Node's compile cache
import nodeModule = require('node:module');
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireCached } from './cached-bundle';

type Statics = { _cache: Record<string, unknown>; getCompileCacheDir?: () => string | undefined };
const loader = nodeModule as unknown as Statics;
const registry = (nodeModule.Module as unknown as Statics)._cache;

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
    writeFileSync(file, body);
    return file;
  }

  const cacheFiles = () => readdirSync(cacheDir).filter((name) => name.endsWith('.v8'));
  const waitForCache = async () => {
    for (let i = 0; i < 40 && cacheFiles().length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  };

  it('loads a module once, with CommonJS globals and its own require', () => {
    const helper = moduleFile('helper.js', 'exports.name = "helper";');
    const file = moduleFile(
      'main.js',
      `exports.here = __filename; exports.dir = __dirname; exports.helper = require('./helper.js').name; exports.strict = this === exports;`,
    );
    const first = requireCached(file) as Record<string, unknown>;
    expect(first).toEqual({ here: file, dir: folder, helper: 'helper', strict: true });
    expect(requireCached(file)).toBe(first);
    // In Node's registry, so that a plain require of it gets the same instance.
    expect((registry[file] as { exports: unknown; loaded: boolean }).exports).toBe(first);
    expect((registry[file] as { loaded: boolean }).loaded).toBe(true);
    expect(existsSync(helper)).toBe(true);
  });

  it('keeps the compiled code after start-up and loads from it the next time', async () => {
    const file = moduleFile('kept.js', 'exports.twice = (n) => n * 2;');
    requireCached(file);
    await waitForCache();
    expect(cacheFiles()).toHaveLength(1);
    delete registry[file];
    expect((requireCached(file) as { twice(n: number): number }).twice(21)).toBe(42);
  });

  it('compiles as usual when the kept code is damaged', async () => {
    const file = moduleFile('damaged.js', 'exports.value = 7;');
    requireCached(file);
    await waitForCache();
    const [name] = cacheFiles();
    writeFileSync(join(cacheDir, name), 'not a code cache');
    delete registry[file];
    expect((requireCached(file) as { value: number }).value).toBe(7);
  });

  it("lets the module's own error through and leaves nothing half-loaded", () => {
    const file = moduleFile('throws.js', 'throw new Error("broken module");');
    expect(() => requireCached(file)).toThrow('broken module');
    expect(registry[file]).toBeUndefined();
  });

  it("is plain require without Node's compile cache", () => {
    loader.getCompileCacheDir = () => undefined;
    const file = moduleFile('plain.js', 'exports.plain = true;');
    expect(requireCached(file)).toEqual({ plain: true });
    expect(cacheFiles()).toHaveLength(0);
  });
});
