import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SdkHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Complete, createApp, Prompt, Resource, ResourceTemplate, Tool, UseGuards, type Guard } from '@mcpkit/core';
import { serveHttp, type HttpServer } from '@mcpkit/fastify';
import { IsString } from 'class-validator';
import pino from 'pino';

const ERAS = { legacy: undefined, modern: { mode: { pin: '2026-07-28' } } } as const;

class Card {
  @IsString()
  card: string;

  @IsString()
  tenant: string;
}

class Customer {
  @IsString()
  customer: string;
}

// A guard sees the name the app serving the call offers (billing_refund in the gateway).
const denyRefunds: Guard = { canActivate: (_ctx, target) => !target.name.endsWith('refund') };

class Billing {
  @Tool({ description: 'Charges a card.' })
  charge(input: Card) {
    return `${input.tenant} charged ${input.card}`;
  }

  @Tool()
  @UseGuards(denyRefunds)
  refund(input: Card) {
    return `refunded ${input.card}`;
  }

  @Resource({ uri: 'invoices://latest', mimeType: 'text/plain' })
  latest(input: { uri: string }) {
    return `latest (${input.uri})`;
  }

  @ResourceTemplate({ uriTemplate: 'invoices://{id}', mimeType: 'text/plain' })
  invoice(variables: { id: string }) {
    return `invoice ${variables.id}`;
  }

  @Prompt()
  dunning(args: Customer) {
    return `Dear ${args.customer}, please pay.`;
  }

  @Complete({ prompt: 'dunning', argument: 'customer' })
  customers(value: string) {
    return ['ada', 'alan'].filter((name) => name.startsWith(value));
  }
}

// A gateway that mounts a billing app and reshapes one of its tools, served over Streamable HTTP
// on a loopback socket: the official v2 client sees only the published, namespaced surface, on
// both eras.
describe.each(Object.keys(ERAS) as Array<keyof typeof ERAS>)('a composed app over HTTP (%s era)', (era) => {
  let server: HttpServer;
  beforeAll(async () => {
    const logger = pino({ level: 'silent' });
    const billing = createApp({ name: 'billing', version: '1.0.0', providers: [Billing], logger });
    const gateway = createApp({
      name: 'gateway',
      version: '1.0.0',
      providers: [],
      logger,
      imports: [{ app: billing, prefix: 'billing' }],
      transforms: [{ tool: 'billing_charge', name: 'charge', hide: { tenant: { value: 'acme' } } }],
    });
    server = await serveHttp(gateway, { port: 0 });
  });
  afterAll(() => server.close());

  it('lists, calls, reads, gets and completes through the mount', async () => {
    const client = new Client({ name: 'compose', version: '1.0.0' }, ERAS[era] ? { versionNegotiation: ERAS[era] } : {});
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      const { tools } = await client.listTools();
      // The child's guard, through the parent: not listed, and a call is denied.
      expect(tools.map((tool) => tool.name)).toEqual(['charge']);
      expect(Object.keys(tools[0].inputSchema.properties ?? {})).toEqual(['card']);
      const charged = await client.callTool({ name: 'charge', arguments: { card: 'visa' } });
      expect(charged.content).toEqual([{ type: 'text', text: 'acme charged visa' }]);
      await expect(client.callTool({ name: 'billing_refund', arguments: { card: 'visa', tenant: 'x' } })).rejects.toThrow(/Forbidden/);
      const { resources } = await client.listResources();
      expect(resources.map((resource) => resource.uri)).toEqual(['billing+invoices://latest']);
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(['billing+invoices://{id}']);
      expect((await client.readResource({ uri: 'billing+invoices://latest' })).contents).toEqual([
        { uri: 'billing+invoices://latest', mimeType: 'text/plain', text: 'latest (invoices://latest)' },
      ]);
      expect((await client.readResource({ uri: 'billing+invoices://7' })).contents[0]).toMatchObject({ text: 'invoice 7' });
      const prompt = await client.getPrompt({ name: 'billing_dunning', arguments: { customer: 'Ada' } });
      expect(prompt.messages[0].content).toEqual({ type: 'text', text: 'Dear Ada, please pay.' });
      const completed = await client.complete({ ref: { type: 'ref/prompt', name: 'billing_dunning' }, argument: { name: 'customer', value: 'al' } });
      expect(completed.completion.values).toEqual(['alan']);
    } finally {
      await client.close();
    }
  });
});

// The official v1 SDK client (legacy era, a session with its SSE stream): a change of the mounted
// app reaches it as the gateway's tools/list_changed, and the list it then reads has changed.
describe('a composed app over HTTP with the v1 SDK client: list changes of the mounted app', () => {
  it('relays the mounted app list_changed to the gateway session', async () => {
    const logger = pino({ level: 'silent' });
    const billing = createApp({ name: 'billing', version: '1.0.0', providers: [Billing], logger, dynamic: true });
    const gateway = createApp({ name: 'gateway', version: '1.0.0', providers: [], logger, imports: [{ app: billing, prefix: 'billing' }] });
    const server = await serveHttp(gateway, { port: 0 });
    const client = new SdkClient({ name: 'compose-v1', version: '1.0.0' });
    try {
      let heard: () => void = () => undefined;
      const changed = new Promise<void>((resolve) => (heard = resolve));
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => heard());
      await client.connect(new SdkHttpTransport(new URL(server.url)));
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['billing_charge']);
      // The session's SSE stream opens after initialize, at a moment the test cannot see: the
      // mounted tool is switched off and on until the first change is heard.
      let enabled = true;
      const flip = setInterval(() => {
        enabled = !enabled;
        if (enabled) billing.enable('tool', 'charge');
        else billing.disable('tool', 'charge');
      }, 50);
      await changed.finally(() => clearInterval(flip));
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(enabled ? ['billing_charge'] : []);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
