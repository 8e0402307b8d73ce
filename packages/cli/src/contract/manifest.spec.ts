import { homedir, tmpdir } from 'node:os';
import { createApp, defineTool, type McpApp, type McpPrompt, type McpResource, type McpResourceTemplate, type McpTool } from '@mcpkit/core';
import { TestClient } from '@mcpkit/testing';
import { createEverythingApp } from '../../../../apps/everything/src/app';
import { createNotesApp } from '../../../../apps/notes/src/app';
import { NoteStore } from '../../../../apps/notes/src/note-store';
import { SqliteTaskStore } from '../../../../apps/notes/src/sqlite-task-store';
import { createTestbedApp } from '../../../../apps/testbed/src/app';
import { contentDigest } from './canonical-json';
import { buildManifest, formatManifest, MANIFEST_ERAS, type Manifest } from './manifest';

function notesApp(): McpApp {
  return createNotesApp(new NoteStore(':memory:'), new SqliteTaskStore(':memory:'), tmpdir());
}

const APPS: Array<[string, () => McpApp]> = [
  ['testbed', () => createTestbedApp({ TOOLS: '3' })],
  ['everything, paged by 2', () => createEverythingApp({ pageSize: 2 })],
  ['notes', notesApp],
];

describe('buildManifest', () => {
  it.each(APPS)('gives %s the same bytes every time, from the same app and from a new one', (_, make) => {
    const app = make();
    const text = formatManifest(buildManifest(app));
    expect(formatManifest(buildManifest(app))).toBe(text);
    expect(formatManifest(buildManifest(make()))).toBe(text);
    // No machine paths, no time.
    expect(text).not.toContain(process.cwd());
    expect(text).not.toContain(homedir());
    expect(text).not.toMatch(/20\d\d-\d\d-\d\dT\d\d:/);
  });

  it.each(APPS)('records what %s answers on each era: capabilities, server info and every page of every list', async (_, make) => {
    const app = make();
    const manifest = buildManifest(app);
    const byKey = <T>(items: T[], key: (item: T) => string) => [...items].sort((a, b) => (key(a) < key(b) ? -1 : 1));
    for (const [era, revision] of [
      ['legacy', '2025-11-25'],
      ['modern', '2026-07-28'],
    ] as const) {
      // The manifest is the whole surface: what a client with MCP Apps gets (one without gets no view tools).
      const client = await TestClient.connect(app, {
        era,
        capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } },
      });
      const surface = manifest.eras[revision];
      expect(surface.capabilities).toEqual(client.server.capabilities);
      expect(surface.serverInfo).toEqual(client.server.serverInfo);
      expect(manifest.instructions).toEqual(client.server.instructions);
      // Every page, as a client reads them.
      const all = async <T>(method: string, list: string): Promise<T[]> => {
        const items: T[] = [];
        let cursor: string | undefined;
        do {
          const page = await client.request<Record<string, unknown>>(method, cursor ? { cursor } : {});
          items.push(...(page[list] as T[]));
          cursor = page.nextCursor as string | undefined;
        } while (cursor);
        return items;
      };
      expect(surface.tools).toEqual(byKey(await all<McpTool>('tools/list', 'tools'), (tool) => tool.name));
      expect(surface.resources).toEqual(byKey(await all<McpResource>('resources/list', 'resources'), (resource) => resource.uri));
      expect(surface.resourceTemplates).toEqual(
        byKey(await all<McpResourceTemplate>('resources/templates/list', 'resourceTemplates'), (template) => template.uriTemplate),
      );
      expect(surface.prompts).toEqual(byKey(await all<McpPrompt>('prompts/list', 'prompts'), (prompt) => prompt.name));
    }
  });

  it('writes sorted keys, items sorted by key, and the digest of each item and of the whole', () => {
    const manifest = buildManifest(createEverythingApp());
    const text = formatManifest(manifest);
    const keysSorted = (value: unknown): boolean =>
      typeof value !== 'object' || value === null
        ? true
        : Array.isArray(value)
          ? value.every(keysSorted)
          : Object.keys(value).every((key, index, keys) => index === 0 || keys[index - 1] < key) && Object.values(value).every(keysSorted);
    expect(keysSorted(JSON.parse(text))).toBe(true);
    expect(text.endsWith('}\n')).toBe(true);
    for (const era of MANIFEST_ERAS) {
      const { tools, digests } = manifest.eras[era];
      expect(tools.map((tool) => tool.name)).toEqual(tools.map((tool) => tool.name).sort());
      for (const tool of tools) expect(digests.tools[tool.name]).toBe(contentDigest(tool));
      expect(Object.keys(digests.prompts)).toEqual(manifest.eras[era].prompts.map((prompt) => prompt.name));
    }
    const { digest, ...content } = manifest;
    expect(digest).toBe(contentDigest(content));
    expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("changes an item's digest, and the whole's, when only its description changes", () => {
    const make = (description: string) =>
      buildManifest(
        createApp({
          name: 'one',
          version: '1.0.0',
          providers: [defineTool({ name: 'echo', description }, () => 'ok'), defineTool({ name: 'other' }, () => 'ok')],
        }),
      );
    const [before, after]: Manifest[] = [make('Echoes'), make('Echoes back')];
    expect(after.eras['2025-11-25'].digests.tools.echo).not.toBe(before.eras['2025-11-25'].digests.tools.echo);
    expect(after.eras['2025-11-25'].digests.tools.other).toBe(before.eras['2025-11-25'].digests.tools.other);
    expect(after.digest).not.toBe(before.digest);
  });

  it('lists the arguments that complete, and no longer those of a disabled prompt', () => {
    const app = createEverythingApp();
    const completions = buildManifest(app).completions;
    expect(completions.length).toBeGreaterThan(0);
    const prompt = completions.find((completion) => completion.ref.type === 'ref/prompt')!;
    expect(prompt).toEqual({ ref: { type: 'ref/prompt', name: expect.any(String) }, argument: expect.any(String) });
    app.disable('prompt', (prompt.ref as { name: string }).name);
    expect(buildManifest(app).completions).not.toContainEqual(prompt);
  });

  it('holds every item, whoever may see it: a hidden tool is in the manifest', async () => {
    const app = createApp({ name: 'guarded', version: '1.0.0', requireAuth: true, providers: [defineTool({ name: 'secret' }, () => 'ok')] });
    const anonymous = await TestClient.connect(app);
    expect(await anonymous.listTools()).toEqual([]);
    expect(buildManifest(app).eras['2025-11-25'].tools.map((tool) => tool.name)).toEqual(['secret']);
  });
});
