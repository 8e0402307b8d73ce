import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Runs the built entry in a child: turning the cache on inside a jest worker would change the worker.
// The file `@mcpkit/core/compile-cache` resolves to, as shipped.
const manifest = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { exports: Record<string, { default: string }> };
const ENTRY = join(__dirname, '..', manifest.exports['./compile-cache'].default);
// eslint-disable-next-line @typescript-eslint/no-require-imports
const hasCompileCache = typeof (require('node:module') as { enableCompileCache?: unknown }).enableCompileCache === 'function';

function runEntry(env: Record<string, string>): { directory: string | null; files: number } {
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-compile-cache-'));
  try {
    // The entry, then a module loaded after it (what the cache is for); Node writes the cache at exit.
    const script = `const { enableCompileCache } = require(${JSON.stringify(ENTRY)}); require(${JSON.stringify(join(__dirname, '..', 'dist', 'errors', 'mcp-error.js'))}); console.log(JSON.stringify(enableCompileCache() ?? null));`;
    // The default folder is under os.tmpdir(); NODE_COMPILE_CACHE would turn the cache on without us.
    const childEnv: Record<string, string | undefined> = { ...process.env, TMPDIR: dir, ...env };
    delete childEnv.NODE_COMPILE_CACHE;
    const child = spawnSync(process.execPath, ['-e', script], { env: childEnv, encoding: 'utf8', timeout: 20_000 });
    expect(child.status).toBe(0);
    const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
    return { directory: JSON.parse(child.stdout) as string | null, files };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('@mcpkit/core/compile-cache', () => {
  (hasCompileCache ? it : it.skip)('turns on the compile cache where Node has one (≥ 22.1) and stores the modules loaded after it', () => {
    const { directory, files } = runEntry({});
    expect(directory).toContain('node-compile-cache');
    expect(files).toBeGreaterThan(0);
  });

  (hasCompileCache ? it : it.skip)('stays off with NODE_DISABLE_COMPILE_CACHE=1', () => {
    expect(runEntry({ NODE_DISABLE_COMPILE_CACHE: '1' })).toEqual({ directory: null, files: 0 });
  });

  (hasCompileCache ? it.skip : it)('does nothing and does not throw on a Node without one (20)', () => {
    expect(runEntry({})).toEqual({ directory: null, files: 0 });
  });
});
