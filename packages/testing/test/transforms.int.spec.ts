import { createApp, Prompt, Public, RequireScopes, Resource, Tool, type AuthInfo, type Transform } from '@mcpkit/core';
import { IsOptional, IsString } from 'class-validator';
import pino from 'pino';
import { firstText, RpcError, TestClient } from '../src';

class Charge {
  @IsString()
  card: string;

  @IsString()
  tenant: string;

  @IsOptional()
  @IsString()
  region?: string;
}

class Topic {
  @IsString()
  topic: string;
}

class Tools {
  @Tool({ description: 'Charges a card.' })
  charge(input: Charge) {
    return `${input.tenant}/${input.region ?? '-'}: ${input.card}`;
  }

  @Tool({ tags: ['internal'] })
  debug() {
    return 'debug';
  }

  @Tool()
  dump() {
    return 'dump';
  }

  @Public()
  @Resource({ uri: 'docs://readme', mimeType: 'text/markdown' })
  readme() {
    return '# Readme';
  }

  @RequireScopes('secret')
  @Resource({ uri: 'docs://secret', mimeType: 'text/plain' })
  secret() {
    return 'the secret';
  }

  @Prompt()
  brief(args: Topic) {
    return `Write about ${args.topic}.`;
  }
}

const tenantOf = (auth: AuthInfo | undefined): unknown => auth?.claims?.tenant;

function app(transforms: readonly Transform[], imports = false) {
  const child = createApp({ name: 'billing', version: '1', providers: [Tools] });
  return createApp({
    name: 't',
    version: '1',
    providers: imports ? [] : [Tools],
    imports: imports ? [{ app: child, prefix: 'billing' }] : [],
    transforms,
    logger: pino({ level: 'silent' }),
  });
}

const acme: AuthInfo = { subject: 'ada', clientId: 'cli', scopes: [], claims: { tenant: 'acme' } };

describe.each(['legacy', 'modern'] as const)('transforms (%s era)', (era) => {
  it('renames a tool and rewrites its description, in place', async () => {
    const client = await TestClient.connect(app([{ tool: 'charge', name: 'pay', description: (old) => `${old} Use for invoices.` }]), { era });
    const tools = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['pay', 'debug', 'dump']);
    expect(tools[0].description).toBe('Charges a card. Use for invoices.');
    expect(firstText(await client.callTool('pay', { card: 'visa', tenant: 't' }))).toBe('t/-: visa');
    await expect(client.callTool('charge', { card: 'visa', tenant: 't' })).rejects.toBeInstanceOf(RpcError);
  });

  it('hides arguments behind fixed and computed values, over what the client sends', async () => {
    const transforms: Transform[] = [{ tool: 'charge', hide: { tenant: { from: (ctx) => tenantOf(ctx.auth) }, region: { value: 'eu' } } }];
    const client = await TestClient.connect(app(transforms), { era, auth: acme });
    const [charge] = await client.listTools();
    expect(charge.inputSchema.properties).toEqual({ card: expect.any(Object) });
    expect(charge.inputSchema.required).toEqual(['card']);
    expect(firstText(await client.callTool('charge', { card: 'visa', tenant: 'evil', region: 'us' }))).toBe('acme/eu: visa');
    // Without a tenant to compute, the tool's own validation refuses the call.
    const anonymous = await TestClient.connect(app(transforms), { era });
    const refused = await anonymous.callTool('charge', { card: 'visa', tenant: 'evil' });
    expect(refused.isError).toBe(true);
    expect(firstText(refused)).toMatch(/tenant/);
  });

  it('answers a call whose computed value throws with an error result', async () => {
    const transforms: Transform[] = [
      {
        tool: 'charge',
        hide: {
          tenant: {
            from: () => {
              throw new Error('no directory');
            },
          },
        },
      },
    ];
    const client = await TestClient.connect(app(transforms), { era });
    const result = await client.callTool('charge', { card: 'visa' });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toMatch(/set by the server/);
  });

  it('drops tools by name and by tag', async () => {
    const client = await TestClient.connect(app([{ drop: { names: ['dump'], tags: ['internal'] } }]), { era });
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(['charge']);
    await expect(client.callTool('debug')).rejects.toBeInstanceOf(RpcError);
  });

  it('applies to mounted tools, by their mounted names', async () => {
    const client = await TestClient.connect(app([{ tool: 'billing_charge', name: 'charge' }, { drop: { tags: ['internal'] } }], true), { era });
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(['charge', 'billing_dump']);
    expect(firstText(await client.callTool('charge', { card: 'visa', tenant: 't' }))).toBe('t/-: visa');
  });

  it('offers resources as tools, each read passing the resource own rules', async () => {
    const client = await TestClient.connect(app([{ resourcesAsTools: true }]), { era });
    const listed = JSON.parse(firstText(await client.callTool('list_resources'))) as { resources: Array<{ uri: string }> };
    // As resources/list lists them to this caller (a missing scope challenges, it does not hide).
    expect(listed.resources.map((resource) => resource.uri)).toEqual(['docs://readme', 'docs://secret']);
    const read = await client.callTool('read_resource', { uri: 'docs://readme' });
    expect(read.content).toEqual([{ type: 'resource', resource: { uri: 'docs://readme', mimeType: 'text/markdown', text: '# Readme' } }]);
    const secret = await client.callTool('read_resource', { uri: 'docs://secret' });
    expect(secret.isError).toBe(true);
    expect(firstText(secret)).not.toContain('the secret');
    expect((await client.callTool('read_resource', {})).isError).toBe(true);
  });

  it('offers prompts as tools', async () => {
    const client = await TestClient.connect(app([{ promptsAsTools: { get: 'prompt' } }]), { era });
    const listed = JSON.parse(firstText(await client.callTool('list_prompts'))) as { prompts: Array<{ name: string }> };
    expect(listed.prompts.map((prompt) => prompt.name)).toEqual(['brief']);
    const got = await client.callTool('prompt', { name: 'brief', arguments: { topic: 'mounts' } });
    expect(got.content).toEqual([{ type: 'text', text: 'Write about mounts.' }]);
    expect((await client.callTool('prompt', { name: 'nope' })).isError).toBe(true);
  });
});

describe('transforms: start-up errors', () => {
  it.each([
    ['a tool the app lacks', [{ tool: 'nope', name: 'x' }], /MCPKIT_ERR_INVALID_TRANSFORM.*"nope"/s],
    ['an argument the tool lacks', [{ tool: 'charge', hide: { nope: { value: 1 } } }], /MCPKIT_ERR_INVALID_TRANSFORM.*hides "nope"/s],
    ['a rename onto another tool', [{ tool: 'charge', name: 'dump' }], /MCPKIT_ERR_INVALID_TRANSFORM.*"dump"/s],
    ['a bad tool name', [{ tool: 'charge', name: 'has space' }], /MCPKIT_ERR_INVALID_TRANSFORM.*not a tool name/s],
    ['a hidden value of neither kind', [{ tool: 'charge', hide: { tenant: 'acme' } }], /MCPKIT_ERR_INVALID_TRANSFORM.*hides "tenant"/s],
    ['a drop of an unknown name', [{ drop: { names: ['nope'] } }], /MCPKIT_ERR_INVALID_TRANSFORM.*drops "nope"/s],
    ['an unknown transform', [{ frobnicate: true }], /MCPKIT_ERR_INVALID_TRANSFORM.*frobnicate/s],
    [
      'a generated tool meeting another',
      [{ tool: 'charge', name: 'read_resource' }, { resourcesAsTools: true }],
      /MCPKIT_ERR_INVALID_TRANSFORM.*read_resource/s,
    ],
  ])('refuses %s', (_label, transforms, message) => {
    expect(() => app(transforms as never)).toThrow(message);
  });
});
