import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const ROOT = join(__dirname, '..', '..', '..');
const CLI = join(ROOT, 'packages', 'cli', 'dist', 'cli.js');
// The official MCP Bundle CLI (@anthropic-ai/mcpb, a devDependency): what a bundle is checked with.
const MCPB = join(ROOT, 'packages', 'cli', 'node_modules', '@anthropic-ai', 'mcpb', 'dist', 'cli', 'cli.js');
const NOTES = join(ROOT, 'apps', 'notes');

interface McpbManifest {
  name: string;
  server: { type: string; entry_point: string; mcp_config: { command: string; args: string[]; env?: Record<string, string> } };
  tools: { name: string }[];
  user_config?: Record<string, { type: string; required: boolean }>;
  compatibility?: { platforms: string[]; runtimes: { node: string } };
}

// Slow (about a minute: the bundle holds the notes app's 20 000 dependency files): packs
// apps/notes, checks the bundle with the official CLI, then runs it as a desktop client does.
describe('mcpkit pack on apps/notes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-mcpb-'));
  const bundle = join(dir, 'notes.mcpb');
  const unpacked = join(dir, 'unpacked');
  let manifest: McpbManifest;

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a bundle that mcpb unpacks and validates', () => {
    const packed = spawnSync(process.execPath, [CLI, 'pack', '--out', bundle], { cwd: NOTES, env: { ...process.env, NOTES_DB: ':memory:' }, encoding: 'utf8' });
    expect(packed.status).toBe(0);
    // better-sqlite3 is compiled against this Node's V8: the bundle says so, and the packer is told.
    expect(packed.stderr).toContain('better_sqlite3.node');
    execFileSync(process.execPath, [MCPB, 'unpack', bundle, unpacked], { encoding: 'utf8' });
    expect(execFileSync(process.execPath, [MCPB, 'validate', join(unpacked, 'manifest.json')], { encoding: 'utf8' })).toContain('validation passes');
    manifest = JSON.parse(readFileSync(join(unpacked, 'manifest.json'), 'utf8')) as McpbManifest;
    const major = Number(process.versions.node.split('.')[0]);
    expect(manifest.compatibility).toEqual({ platforms: [process.platform], runtimes: { node: `>=${major}.0.0 <${major + 1}.0.0` } });
    expect(manifest.server).toEqual({
      type: 'node',
      entry_point: 'dist/main.js',
      mcp_config: { command: 'node', args: ['${__dirname}/dist/main.js', '--stdio'], env: { NOTES_DB: '${user_config.NOTES_DB}' } },
    });
    expect(manifest.user_config).toEqual({
      NOTES_DB: { type: 'string', title: 'NOTES_DB', description: expect.stringContaining('SQLite'), required: false },
    });
    // board_notes is the board view's own tool (MCP Apps visibility ['app']): not offered to the model, not listed.
    expect(manifest.tools.map((tool) => tool.name)).toEqual([
      'create_note',
      'delete_note',
      'draft_note',
      'export_notes',
      'search_notes',
      'show_board',
      'update_note',
    ]);
  }, 240_000);

  it('serves tools/list when launched as the desktop client does (node, the entry and args of the manifest, the user config as env)', async () => {
    expect(manifest).toBeDefined();
    const config = manifest.server.mcp_config;
    const args = config.args.map((arg) => arg.replace('${__dirname}', unpacked));
    const env = Object.fromEntries(
      Object.entries(config.env ?? {}).map(([name, value]) => [name, value.replace('${user_config.NOTES_DB}', join(dir, 'notes.db'))]),
    );
    const client = new Client({ name: 'desktop-like', version: '1.0.0' });
    // Only the bundle's files: the working folder is elsewhere, PATH and HOME as a desktop app has them.
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args,
        env: { PATH: process.env.PATH ?? '', HOME: dir, LOG_LEVEL: 'warn', ...env },
        cwd: dir,
        stderr: 'pipe',
      }),
    );
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(manifest.tools.map((tool) => tool.name));
      const created = await client.callTool({ name: 'create_note', arguments: { title: 'Bundled', body: 'from the .mcpb' } });
      expect(created.structuredContent).toMatchObject({ title: 'Bundled' });
    } finally {
      await client.close();
    }
  }, 60_000);
});
