import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sh } from './sh';

// The built CLI in a child process, on the built apps: mcpkit manifest, diff and lint.
const CLI = join(__dirname, '..', 'dist', 'cli.js');
const APPS = join(__dirname, '..', '..', '..', 'apps');
const FIXTURES = join(__dirname, 'fixtures', 'contract');
const scratch = mkdtempSync(join(tmpdir(), 'mcpkit-contract-'));
// The notes app opens its databases when loaded: in memory here, nothing written.
const env = { ...process.env, LOG_LEVEL: 'warn', NOTES_DB: ':memory:', NOTES_EXPORT_DIR: scratch };

function mcpkit(args: string[], extra: NodeJS.ProcessEnv = {}) {
  return sh(process.execPath, [CLI, ...args], scratch, 60_000, { ...env, ...extra });
}

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('mcpkit manifest', () => {
  it('prints the same bytes twice for notes, the testbed and everything', async () => {
    const apps = ['notes', 'testbed', 'everything'].map((name) => join(APPS, name, 'dist', 'app.js'));
    const runs = await Promise.all([...apps, ...apps].map((app) => mcpkit(['manifest', app])));
    for (const [index, run] of runs.entries()) {
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdout).toBe(runs[index % apps.length].stdout);
    }
    expect(JSON.parse(runs[0].stdout)).toMatchObject({ manifestVersion: 1, server: { name: 'mcpkit-notes' } });
    // The checked-in notes manifest is this one (apps/notes/test/mcp-manifest.spec.ts checks it from the sources).
    expect(runs[0].stdout).toBe(readFileSync(join(APPS, 'notes', 'mcp-manifest.json'), 'utf8'));
  });

  it('writes --out, and --check exits 1 naming the command once the file is not the manifest', async () => {
    const out = join(scratch, 'manifest.json');
    const app = join(FIXTURES, 'v1.js');
    expect(await mcpkit(['manifest', app, '--out', out])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await mcpkit(['manifest', app, '--out', out, '--check'])).toEqual({ code: 0, stdout: '', stderr: '' });
    writeFileSync(out, readFileSync(out, 'utf8').replace('Searches the notes', 'Searches'));
    expect(await mcpkit(['manifest', app, '--out', out, '--check'])).toEqual({
      code: 1,
      stdout: '',
      stderr: `${out} is not the manifest of this app; regenerate it: mcpkit manifest ${app} --out ${out}\n`,
    });
  });
});

describe('mcpkit diff', () => {
  it('reports the fixture pair exactly, exit 1 (breaking changes, the default --fail-on)', async () => {
    const run = await mcpkit(['diff', join(FIXTURES, 'v1.js'), join(FIXTURES, 'v2.js')]);
    expect(run).toEqual({ code: 1, stdout: readFileSync(join(FIXTURES, 'v1-to-v2.txt'), 'utf8'), stderr: '' });
  });

  it('compares a manifest file with an app, exit 0 with --fail-on none and when nothing breaks', async () => {
    const before = join(scratch, 'v1.json');
    writeFileSync(before, (await mcpkit(['manifest', join(FIXTURES, 'v1.js')])).stdout);
    expect(await mcpkit(['diff', before, join(FIXTURES, 'v1.js')])).toEqual({
      code: 0,
      stdout: 'contract-fixture 1.0.0 → contract-fixture 1.0.0: 0 breaking, 0 risky, 0 safe\nno changes\n',
      stderr: '',
    });
    const markdown = await mcpkit(['diff', before, join(FIXTURES, 'v2.js'), '--format', 'markdown', '--fail-on', 'none']);
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toMatch(/^### MCP contract: 26 breaking, 11 risky, 20 safe\n/);
    const bad = await mcpkit(['diff', before, join(FIXTURES, 'v2.js'), '--fail-on', 'never']);
    expect(bad).toMatchObject({ code: 2, stderr: expect.stringMatching(/^error option '--fail-on <severity>' argument 'never' is invalid/) });
  });
});

describe('mcpkit lint', () => {
  it('prints the testbed with 507 tools tool by tool, and fails under a low --budget', async () => {
    const testbed = join(APPS, 'testbed', 'dist', 'app.js');
    const [low, high] = await Promise.all([
      mcpkit(['lint', testbed, '--budget', '1000'], { TOOLS: '500' }),
      mcpkit(['lint', testbed, '--budget', '100000'], { TOOLS: '500' }),
    ]);
    expect(low.code).toBe(1);
    expect(low.stdout).toMatch(/^mcpkit-testbed 0\.1\.0: 2 errors, \d+ warnings\n/);
    expect(low.stdout).toMatch(/\n {2}server: 2025-11-25: \d+ tokens \(o200k_base\), over the budget of 1000 by \d+\n/);
    const toolLines = low.stdout.split('\n').filter((line) => /^ {2}tool_\d+ +\d+ +\d+ +\d+ +\d+$/.test(line));
    expect(toolLines).toHaveLength(500);
    expect(low.stdout).toMatch(/\n2026-07-28: tools\/list \d+ \+ instructions 0 = \d+ tokens\n$/);
    expect(high.code).toBe(0);
    expect(high.stdout).toMatch(/^mcpkit-testbed 0\.1\.0: 0 errors, \d+ warnings\n/);
  });
});
