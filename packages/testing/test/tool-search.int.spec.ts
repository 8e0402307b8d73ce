import { createApp, defineTool, Tool, UseGuards, type Guard, type Transform } from '@mcpkit/core';
import { IsString } from 'class-validator';
import pino from 'pino';
import { firstText, RpcError, TestClient } from '../src';

class Id {
  @IsString()
  id: string;
}

const adminsOnly: Guard = { canActivate: (ctx) => (ctx.auth?.scopes.includes('admin') ? true : 'hide') };

class Notes {
  @Tool({ description: 'Stores a new note' })
  create_note() {
    return 'created';
  }

  @Tool({ description: 'Deletes a note for good' })
  delete_note(input: Id) {
    return `deleted ${input.id}`;
  }

  @Tool({ description: 'Finds notes by words in their title or body' })
  search_notes() {
    return 'found';
  }

  @Tool({ description: 'Deletes every note at once' })
  @UseGuards(adminsOnly)
  purge_notes() {
    return 'purged';
  }

  @Tool()
  ping() {
    return 'pong';
  }
}

function app(transforms: readonly Transform[]) {
  return createApp({ name: 's', version: '1', providers: [Notes], transforms, logger: pino({ level: 'silent' }) });
}

type Found = { tools: Array<{ name: string; inputSchema: { properties?: object } }> };
const found = (result: Awaited<ReturnType<TestClient['callTool']>>): Found => JSON.parse(firstText(result)) as Found;

describe.each(['legacy', 'modern'] as const)('searchTools (%s era)', (era) => {
  it('lists the search tool and the kept ones; every tool stays callable by name', async () => {
    const client = await TestClient.connect(app([{ searchTools: { keep: ['ping'] } }]), { era });
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(['search_tools', 'ping']);
    expect(firstText(await client.callTool('delete_note', { id: '7' }))).toBe('deleted 7');
    expect((await client.callTool('delete_note', {})).isError).toBe(true);
  });

  it('ranks over names and descriptions and returns what it takes to call the tools', async () => {
    const client = await TestClient.connect(app([{ searchTools: true }]), { era });
    const result = found(await client.callTool('search_tools', { query: 'delete a note' }));
    expect(result.tools[0].name).toBe('delete_note');
    expect(result.tools[0].inputSchema.properties).toEqual({ id: expect.any(Object) });
    expect(found(await client.callTool('search_tools', { query: 'note', limit: 1 })).tools).toHaveLength(1);
    expect(found(await client.callTool('search_tools', { query: 'zebra' })).tools).toEqual([]);
    expect((await client.callTool('search_tools', { query: 'note', limit: 0 })).isError).toBe(true);
    expect((await client.callTool('search_tools', {})).isError).toBe(true);
  });

  it('refuses a query over 1 000 characters, which would make one search cost its words times the tools', async () => {
    const client = await TestClient.connect(app([{ searchTools: true }]), { era });
    const longest = 'delete a note '.repeat(72).slice(0, 1_000);
    expect(found(await client.callTool('search_tools', { query: longest })).tools[0].name).toBe('delete_note');
    const refused = await client.callTool('search_tools', { query: `${longest}x` });
    expect(refused.isError).toBe(true);
    expect(firstText(refused)).toMatch(/1001 characters.*at most 1000/);
    // Not even a megabyte of distinct words is ranked.
    const huge = Array.from({ length: 100_000 }, (_, index) => `w${index}`).join(' ');
    expect((await client.callTool('search_tools', { query: huge })).isError).toBe(true);
  });

  it('ranks odd queries without throwing: empty, only punctuation or regex metacharacters, non-Latin text', async () => {
    const client = await TestClient.connect(app([{ searchTools: true }]), { era });
    for (const query of ['', '   ', '.*+?^${}()|[]\\', '__proto__ constructor', 'ノートを削除', '\u0000\ud800']) {
      expect(found(await client.callTool('search_tools', { query })).tools).toEqual([]);
    }
  });

  it('never shows a caller a tool hidden from it', async () => {
    const anyone = await TestClient.connect(app([{ searchTools: true }]), { era });
    expect(found(await anyone.callTool('search_tools', { query: 'purge' })).tools).toEqual([]);
    await expect(anyone.callTool('purge_notes')).rejects.toBeInstanceOf(RpcError);
    const admin = await TestClient.connect(app([{ searchTools: true }]), { era, auth: { subject: 'root', scopes: ['admin'] } });
    expect(found(await admin.callTool('search_tools', { query: 'purge' })).tools.map((tool) => tool.name)).toEqual(['purge_notes']);
  });
});

const names = (tools: Array<{ name: string }>) => tools.map((tool) => tool.name);
const LIST_CHANGED = 'notifications/tools/list_changed';

describe('searchTools: what a session found joins its tools/list', () => {
  it('lists the found tools for that session alone, after a list_changed to it alone', async () => {
    const shared = app([{ searchTools: { keep: ['ping'] } }]);
    const searcher = await TestClient.connect(shared);
    const bystander = await TestClient.connect(shared);
    expect(shared.capabilities.tools).toEqual({ listChanged: true });
    expect(found(await searcher.callTool('search_tools', { query: 'delete a note', limit: 1 })).tools[0].name).toBe('delete_note');
    expect(searcher.notifications(LIST_CHANGED)).toHaveLength(1);
    expect(names(await searcher.listTools())).toEqual(['search_tools', 'ping', 'delete_note']);
    expect(firstText(await searcher.callTool('delete_note', { id: '3' }))).toBe('deleted 3');
    // Found again: nothing changed, nothing sent.
    await searcher.callTool('search_tools', { query: 'delete a note', limit: 1 });
    expect(searcher.notifications(LIST_CHANGED)).toHaveLength(1);
    expect(bystander.notifications(LIST_CHANGED)).toHaveLength(0);
    expect(names(await bystander.listTools())).toEqual(['search_tools', 'ping']);
  });

  it('never lists a tool hidden from the caller, and holds at most maxFound', async () => {
    const shared = app([{ searchTools: { maxFound: 2 } }]);
    const anyone = await TestClient.connect(shared);
    expect(found(await anyone.callTool('search_tools', { query: 'note', limit: 10 })).tools).toHaveLength(3);
    const listed = names(await anyone.listTools());
    expect(listed).toHaveLength(3);
    expect(listed).not.toContain('purge_notes');
    const admin = await TestClient.connect(shared, { auth: { subject: 'root', scopes: ['admin'] } });
    await admin.callTool('search_tools', { query: 'purge', limit: 1 });
    expect(names(await admin.listTools())).toEqual(['search_tools', 'purge_notes']);
  });

  it('drops a found tool the app disables or removes, from searches and from the lists that found it', async () => {
    const dynamic = createApp({
      name: 's',
      version: '1',
      providers: [Notes],
      transforms: [{ searchTools: true }],
      dynamic: true,
      logger: pino({ level: 'silent' }),
    });
    const client = await TestClient.connect(dynamic);
    await client.callTool('search_tools', { query: 'note', limit: 10 });
    expect(names(await client.listTools())).toEqual(['search_tools', 'create_note', 'delete_note', 'search_notes']);
    dynamic.disable('tool', 'delete_note');
    expect(found(await client.callTool('search_tools', { query: 'delete' })).tools).toEqual([]);
    expect(names(await client.listTools())).toEqual(['search_tools', 'create_note', 'search_notes']);
    await expect(client.callTool('delete_note', { id: '1' })).rejects.toBeInstanceOf(RpcError);
    dynamic.remove('tool', 'create_note');
    expect(found(await client.callTool('search_tools', { query: 'stores a new note' })).tools.map((tool) => tool.name)).not.toContain('create_note');
    expect(names(await client.listTools())).toEqual(['search_tools', 'search_notes']);
  });

  it('lists nothing found with maxFound 0, and sends no list_changed', async () => {
    const client = await TestClient.connect(app([{ searchTools: { maxFound: 0 } }]));
    await client.callTool('search_tools', { query: 'delete a note' });
    expect(client.notifications(LIST_CHANGED)).toHaveLength(0);
    expect(names(await client.listTools())).toEqual(['search_tools']);
  });

  it('on 2026-07-28 (no session) keeps tools/list small: the answer carries the definitions, and each is callable by name', async () => {
    const client = await TestClient.connect(app([{ searchTools: true }]), { era: 'modern' });
    const result = found(await client.callTool('search_tools', { query: 'delete a note', limit: 1 }));
    expect(result.tools[0]).toMatchObject({ name: 'delete_note', inputSchema: { type: 'object' } });
    expect(client.notifications(LIST_CHANGED)).toHaveLength(0);
    expect(names(await client.listTools())).toEqual(['search_tools']);
    expect(firstText(await client.callTool('delete_note', { id: '4' }))).toBe('deleted 4');
  });
});

describe('searchTools on a large catalog', () => {
  it('sends a fraction of the bytes of the full list', async () => {
    const tools = Array.from({ length: 500 }, (_, index) =>
      defineTool(
        {
          name: `tool_${index}`,
          description: `Does thing number ${index} with the records of the department ${index % 17}`,
          inputSchema: { type: 'object', properties: { record: { type: 'string', description: 'The record to work on' } } },
        },
        () => `done ${index}`,
      ),
    );
    const size = async (transforms: readonly Transform[]) => {
      const client = await TestClient.connect(createApp({ name: 'big', version: '1', providers: tools, transforms }));
      return JSON.stringify(await client.listTools()).length;
    };
    const full = await size([]);
    const disclosed = await size([{ searchTools: true }]);
    expect(disclosed * 100).toBeLessThan(full);
  });
});

describe('searchTools: start-up errors', () => {
  it.each([
    ['a kept tool the app lacks', [{ searchTools: { keep: ['nope'] } }], /MCPKIT_ERR_INVALID_TRANSFORM.*keeps "nope"/s],
    ['a name taken', [{ searchTools: { name: 'ping' } }], /MCPKIT_ERR_INVALID_TRANSFORM.*"ping"/s],
    ['a limit out of range', [{ searchTools: { limit: 500 } }], /MCPKIT_ERR_INVALID_TRANSFORM.*searchTools takes/s],
    ['a maxFound out of range', [{ searchTools: { maxFound: -1 } }], /MCPKIT_ERR_INVALID_TRANSFORM.*searchTools takes/s],
  ])('refuses %s', (_label, transforms, message) => {
    expect(() => app(transforms as never)).toThrow(message);
  });
});
