import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { templateVariables } from '../src/contract/client-gen';

const ROOT = join(__dirname, '..', '..', '..');
const CLI = join(ROOT, 'packages', 'cli', 'dist', 'cli.js');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

// A surface the notes app does not have: a tool whose schema refers to its own $defs (and another
// tool with a $defs entry of the same name), a name that is no identifier, a template with RFC
// 6570 operators. Written into a copy of the notes manifest, generated, compiled and run.
const TOOLS = [
  {
    name: 'move-item',
    description: 'Moves an item',
    inputSchema: {
      type: 'object',
      $defs: { Place: { type: 'object', properties: { shelf: { type: 'integer' } }, required: ['shelf'], additionalProperties: false } },
      properties: { from: { $ref: '#/$defs/Place' }, to: { $ref: '#/$defs/Place' } },
      required: ['from', 'to'],
    },
    outputSchema: { type: 'object', properties: { moved: { type: 'boolean' } }, required: ['moved'] },
  },
  {
    name: 'label',
    inputSchema: {
      type: 'object',
      $defs: { Place: { type: 'string', enum: ['front', 'back'] } },
      properties: { side: { $ref: '#/$defs/Place' } },
      required: ['side'],
    },
  },
];
const TEMPLATE = { name: 'file', uriTemplate: 'files://{+path}{?q,limit}' };

describe('mcpkit client on a manifest file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-client-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('generates a client that compiles under strict, keeps each $defs apart, and calls by the published names', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'apps', 'notes', 'mcp-manifest.json'), 'utf8')) as {
      eras: Record<string, { tools: unknown[]; resourceTemplates: unknown[]; prompts: unknown[]; resources: unknown[] }>;
    };
    manifest.eras['2025-11-25'] = { ...manifest.eras['2025-11-25'], tools: TOOLS, resourceTemplates: [TEMPLATE], prompts: [], resources: [] };
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
    execFileSync(process.execPath, [CLI, 'client', join(dir, 'manifest.json'), '--out', join(dir, 'client.ts')]);
    writeFileSync(
      join(dir, 'use.ts'),
      `import { createClient } from './client';
export const calls: unknown[] = [];
const fake = {
  callTool: async (params: unknown) => (calls.push(params), { content: [], structuredContent: { moved: true } }),
  getPrompt: async () => ({ messages: [] }),
  readResource: async (params: { uri: string }) => (calls.push(params), { contents: [] }),
};
const client = createClient(fake);
export async function run(): Promise<boolean> {
  const moved = await client.tools['move-item']({ from: { shelf: 1 }, to: { shelf: 2 } });
  await client.tools.label({ side: 'front' });
  await client.templates.file({ path: 'a/b c', q: 'x&y' });
  return moved.moved;
}
`,
    );
    const compiled = spawnSync(
      process.execPath,
      [TSC, '--strict', '--target', 'ES2022', '--module', 'commonjs', '--types', 'node', '--skipLibCheck', '--outDir', join(dir, 'out'), join(dir, 'use.ts')],
      { encoding: 'utf8' },
    );
    expect(compiled.stdout).toBe('');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const use = require(join(dir, 'out', 'use.js')) as { run: () => Promise<boolean>; calls: unknown[] };
    return use.run().then((moved) => {
      expect(moved).toBe(true);
      expect(use.calls).toEqual([
        { name: 'move-item', arguments: { from: { shelf: 1 }, to: { shelf: 2 } } },
        { name: 'label', arguments: { side: 'front' } },
        { uri: 'files://a/b%20c?q=x%26y' },
      ]);
      const source = readFileSync(join(dir, 'client.ts'), 'utf8');
      expect(source).toMatch(/export interface Place \{\s+shelf: number;\s+\}/);
      expect(source).toMatch(/export interface LabelInput \{\s+side: 'front' \| 'back';\s+\}/);
    });
  }, 60_000);

  it('names the variables of a URI template, without operators or modifiers; query variables are optional', () => {
    expect(templateVariables('files://{+path}{?q,limit}{/seg*}{#frag:3}')).toEqual([
      { name: 'path', required: true },
      { name: 'q', required: false },
      { name: 'limit', required: false },
      { name: 'seg', required: true },
      { name: 'frag', required: true },
    ]);
  });
});
