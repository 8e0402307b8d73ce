import {
  Complete,
  createApp,
  DefinitionError,
  Prompt,
  Public,
  Resource,
  ResourceTemplate,
  Tool,
  UseGuards,
  type AuthInfo,
  type CallTarget,
  type Guard,
  type Interceptor,
  type RequestContext,
} from '@mcpkit/core';
import { IsString } from 'class-validator';
import { firstText, RpcError, TestClient } from '../src';
import { capturedLogger } from './support/captured-logger';

const calls: string[] = [];

class Amount {
  @IsString()
  card: string;
}

class Customer {
  @IsString()
  customer: string;
}

class OnlyGold implements Guard {
  canActivate(ctx: RequestContext, target: CallTarget) {
    calls.push(`class-guard:${target.name}`);
    return ctx.auth?.scopes.includes('gold') === true;
  }
}

class BillingTools {
  @Tool({ description: 'Charges a card.' })
  charge(input: Amount) {
    calls.push('charge');
    return `charged ${input.card}`;
  }

  @Tool()
  @UseGuards(OnlyGold)
  refund(input: Amount) {
    return `refunded ${input.card}`;
  }

  @Public()
  @Tool()
  status() {
    return 'up';
  }

  @Resource({ uri: 'invoices://latest', mimeType: 'text/plain' })
  latest(input: { uri: string }) {
    return `latest from ${input.uri}`;
  }

  @ResourceTemplate({ uriTemplate: 'invoices://{id}', mimeType: 'text/plain' })
  invoice(variables: { id: string }) {
    return `invoice ${variables.id}`;
  }

  @Prompt({ description: 'Dunning letter.' })
  dunning(args: Customer) {
    return `Dear ${args.customer}, please pay.`;
  }

  @Complete({ prompt: 'dunning', argument: 'customer' })
  customers(value: string) {
    return ['ada', 'alan'].filter((name) => name.startsWith(value));
  }

  @Complete({ resourceTemplate: 'invoices://{id}', variable: 'id' })
  invoiceIds() {
    return ['1', '2'];
  }
}

class ParentTools {
  @Public()
  @Tool()
  ping() {
    return 'pong';
  }
}

const childInterceptor: Interceptor = {
  async intercept(ctx, next, target) {
    calls.push(`child-interceptor:${target.name}`);
    return next();
  },
};
const parentGuard: Guard = {
  canActivate(_ctx, target) {
    calls.push(`parent-guard:${target.operation}:${target.name}`);
    return true;
  },
};

function billingApp(options: { dynamic?: boolean; subscriptions?: boolean } = {}) {
  return createApp({ name: 'billing', version: '1.0.0', providers: [BillingTools], requireAuth: true, interceptors: [childInterceptor], ...options });
}

function gateway(billing = billingApp(), options: { subscriptions?: boolean } = {}) {
  return createApp({
    name: 'gateway',
    version: '1.0.0',
    providers: [ParentTools],
    guards: [parentGuard],
    imports: [{ app: billing, prefix: 'billing' }],
    ...options,
  });
}

const gold: AuthInfo = { subject: 'ada', clientId: 'cli', scopes: ['gold'] };
const plain: AuthInfo = { subject: 'bob', clientId: 'cli', scopes: [] };

describe.each(['legacy', 'modern'] as const)('mount (%s era)', (era) => {
  beforeEach(() => calls.splice(0));

  it('offers the mounted tools under the prefix and runs the parent pipeline around the child one', async () => {
    const client = await TestClient.connect(gateway(), { era, auth: gold });
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(['ping', 'billing_charge', 'billing_refund', 'billing_status']);
    expect((await client.listTools()).find((tool) => tool.name === 'billing_charge')?.description).toBe('Charges a card.');
    calls.splice(0);
    expect(firstText(await client.callTool('billing_charge', { card: 'visa' }))).toBe('charged visa');
    expect(calls).toEqual(['parent-guard:call:billing_charge', 'child-interceptor:billing_charge', 'charge']);
    // The child's validation.
    expect((await client.callTool('billing_charge', { card: 7 })).isError).toBe(true);
    // The old name is not served.
    await expect(client.callTool('charge', { card: 'visa' })).rejects.toBeInstanceOf(RpcError);
  });

  it("enforces the child's guards and requireAuth in the parent", async () => {
    const anonymous = await TestClient.connect(gateway(), { era });
    // requireAuth of the child: only its @Public tool is listed to a caller without credentials.
    expect((await anonymous.listTools()).map((tool) => tool.name)).toEqual(['ping', 'billing_status']);
    await expect(anonymous.callTool('billing_charge', { card: 'visa' })).rejects.toMatchObject({ code: expect.any(Number) });
    expect(firstText(await anonymous.callTool('billing_status'))).toBe('up');
    const bob = await TestClient.connect(gateway(), { era, auth: plain });
    await expect(bob.callTool('billing_refund', { card: 'visa' })).rejects.toBeInstanceOf(RpcError);
    const ada = await TestClient.connect(gateway(), { era, auth: gold });
    expect(firstText(await ada.callTool('billing_refund', { card: 'visa' }))).toBe('refunded visa');
  });

  it('prefixes resource URIs and templates reversibly, and the handler reads its own URI', async () => {
    const client = await TestClient.connect(gateway(), { era, auth: gold });
    expect((await client.listResources()).map((resource) => resource.uri)).toEqual(['billing+invoices://latest']);
    expect((await client.listResourceTemplates()).map((template) => template.uriTemplate)).toEqual(['billing+invoices://{id}']);
    const latest = await client.readResource('billing+invoices://latest');
    expect(latest.contents).toEqual([{ uri: 'billing+invoices://latest', mimeType: 'text/plain', text: 'latest from invoices://latest' }]);
    expect((await client.readResource('billing+invoices://42')).contents[0]).toMatchObject({ text: 'invoice 42' });
    await expect(client.readResource('invoices://42')).rejects.toBeInstanceOf(RpcError);
  });

  it('offers prompts and routes completions to the child', async () => {
    const client = await TestClient.connect(gateway(), { era, auth: gold });
    expect((await client.listPrompts()).map((prompt) => prompt.name)).toEqual(['billing_dunning']);
    const prompt = await client.getPrompt('billing_dunning', { customer: 'Ada' });
    expect(prompt.messages[0].content).toEqual({ type: 'text', text: 'Dear Ada, please pay.' });
    const byPrompt = await client.complete({ type: 'ref/prompt', name: 'billing_dunning' }, { name: 'customer', value: 'a' });
    expect(byPrompt.values).toEqual(['ada', 'alan']);
    const byTemplate = await client.complete({ type: 'ref/resource', uri: 'billing+invoices://{id}' }, { name: 'id', value: '' });
    expect(byTemplate.values).toEqual(['1', '2']);
    await expect(client.complete({ type: 'ref/prompt', name: 'dunning' }, { name: 'customer', value: '' })).rejects.toBeInstanceOf(RpcError);
  });

  it("propagates the child's list changes to the parent's clients", async () => {
    const billing = billingApp({ dynamic: true });
    const app = gateway(billing);
    const client = await TestClient.connect(app, { era, auth: gold });
    expect(client.server.capabilities.tools).toEqual({ listChanged: true });
    const listening = era === 'modern' ? await client.listen({ toolsListChanged: true, promptsListChanged: true }) : undefined;
    billing.disable('tool', 'refund');
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(['ping', 'billing_charge', 'billing_status']);
    await expect(client.callTool('billing_refund', { card: 'visa' })).rejects.toBeInstanceOf(RpcError);
    billing.remove('prompt', 'dunning');
    expect(await client.listPrompts()).toEqual([]);
    expect(client.notifications('notifications/tools/list_changed')).toHaveLength(1);
    expect(client.notifications('notifications/prompts/list_changed')).toHaveLength(1);
    await listening?.close();
  });
});

describe('mount: the cost of a call', () => {
  class Plain {
    @Tool()
    echo(input: Amount) {
      return input.card;
    }
  }

  it("serves a mounted tool with the child's own compiled functions and no pipeline when neither app declares one", async () => {
    const child = createApp({ name: 'c', version: '1', providers: [Plain] });
    const app = createApp({ name: 'p', version: '1', providers: [], imports: [{ app: child, prefix: 'c' }] });
    const direct = child.map.tools.get('echo')!;
    const mounted = app.map.tools.get('c_echo')!;
    // One map lookup, then exactly what a direct call runs: the same parser and the same bound handler.
    expect(mounted.invoke).toBe(direct.invoke);
    expect(mounted.parseInput).toBe(direct.parseInput);
    expect(app.pipelines).toBeUndefined();
    const client = await TestClient.connect(app);
    expect(firstText(await client.callTool('c_echo', { card: 'visa' }))).toBe('visa');
  });
});

describe('mount: nesting, rate limits and tasks', () => {
  class Exports {
    @Tool({ task: 'optional', input: null })
    exportAll() {
      return 'exported';
    }
  }

  it("runs the child's app-wide rate limit and the grandchild's rules, outermost first", async () => {
    const order: string[] = [];
    const tag = (label: string): Interceptor => ({
      async intercept(_ctx, next) {
        order.push(label);
        return next();
      },
    });
    const inner = createApp({ name: 'inner', version: '1', providers: [Exports], interceptors: [tag('inner')], rateLimit: { limit: 1, windowMs: 60_000 } });
    const middle = createApp({ name: 'middle', version: '1', providers: [], interceptors: [tag('middle')], imports: [{ app: inner, prefix: 'in' }] });
    const outer = createApp({ name: 'outer', version: '1', providers: [], interceptors: [tag('outer')], imports: [{ app: middle, prefix: 'mid' }] });
    const client = await TestClient.connect(outer, { auth: gold });
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(['mid_in_exportAll']);
    expect(firstText(await client.callTool('mid_in_exportAll'))).toBe('exported');
    expect(order).toEqual(['outer', 'middle', 'inner']);
    const over = await client.callTool('mid_in_exportAll');
    expect(over.isError).toBe(true);
    expect(firstText(over)).toMatch(/^rate limit/);
  });

  it('runs a mounted task tool as a task of the importing app', async () => {
    const child = createApp({ name: 'c', version: '1', providers: [Exports] });
    const app = createApp({ name: 'p', version: '1', providers: [], imports: [{ app: child, prefix: 'c' }] });
    const client = await TestClient.connect(app);
    expect(client.server.capabilities.tasks).toBeDefined();
    const [tool] = await client.listTools();
    expect(tool.execution).toEqual({ taskSupport: 'optional' });
    const created = await client.request<{ task: { taskId: string } }>('tools/call', { name: 'c_exportAll', arguments: {}, task: {} });
    const result = await client.request<{ content: Array<{ text: string }> }>('tasks/result', { taskId: created.task.taskId });
    expect(result.content[0].text).toBe('exported');
  });
});

describe('mount: resource subscriptions', () => {
  it("relays the child's resource updates under the mounted URI", async () => {
    const billing = billingApp({ subscriptions: true });
    const app = gateway(billing, { subscriptions: true });
    const client = await TestClient.connect(app, { auth: gold });
    await client.subscribe('billing+invoices://latest');
    billing.resourceUpdated('invoices://latest');
    billing.resourceUpdated('invoices://other');
    expect(client.notifications('notifications/resources/updated')).toEqual([{ uri: 'billing+invoices://latest' }]);
  });

  it('relays them to a 2026-07-28 listen too', async () => {
    const billing = billingApp({ subscriptions: true });
    const client = await TestClient.connect(gateway(billing, { subscriptions: true }), { era: 'modern', auth: gold });
    const listening = await client.listen({ resourceSubscriptions: ['billing+invoices://latest'] });
    billing.resourceUpdated('invoices://latest');
    expect(client.notifications('notifications/resources/updated')).toEqual([{ uri: 'billing+invoices://latest', _meta: expect.anything() }]);
    await listening.close();
  });
});

describe('mount: start-up errors', () => {
  class Clash {
    @Tool({ name: 'billing_charge' })
    clash() {
      return '';
    }
  }

  it('refuses a name met twice, between the parent and a child or two children', () => {
    const error = (() => {
      try {
        createApp({ name: 'g', version: '1', providers: [Clash], imports: [{ app: billingApp(), prefix: 'billing' }] });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(DefinitionError);
    expect((error as DefinitionError).code).toBe('MCPKIT_ERR_MOUNT_COLLISION');
    expect((error as Error).message).toMatch(/billing_charge.*Clash\.clash/s);
    const nested = createApp({ name: 'n', version: '1', providers: [], imports: [{ app: billingApp(), prefix: 'billing' }] });
    const other = createApp({ name: 'o', version: '1', providers: [Clash] });
    expect(() =>
      createApp({
        name: 'g',
        version: '1',
        providers: [],
        imports: [
          { app: nested, prefix: 'a' },
          { app: createApp({ name: 'x', version: '1', providers: [], imports: [{ app: other, prefix: 'billing' }] }), prefix: 'a-b' },
        ],
      }),
    ).not.toThrow();
    expect(() =>
      createApp({
        name: 'g',
        version: '1',
        providers: [Clash],
        imports: [
          { app: other, prefix: 'x' },
          { app: createApp({ name: 'y', version: '1', providers: [Clash] }), prefix: 'x' },
        ],
      }),
    ).toThrow(/MCPKIT_ERR_INVALID_MOUNT.*prefix "x"/s);
  });

  it.each([
    ['an invalid prefix', { app: 'x', prefix: 'Bad_Prefix' }, /MCPKIT_ERR_INVALID_MOUNT.*prefix/s],
    ['no app', { prefix: 'billing' }, /MCPKIT_ERR_INVALID_MOUNT.*has no app/s],
  ])('refuses %s', (_label, entry, message) => {
    expect(() => createApp({ name: 'g', version: '1', providers: [], imports: [entry as never] })).toThrow(message);
  });

  it("refuses a child sharing the parent's bus", () => {
    const billing = billingApp();
    expect(() => createApp({ name: 'g', version: '1', providers: [], bus: billing.bus, imports: [{ app: billing, prefix: 'billing' }] })).toThrow(
      /shares the importing app's event bus/,
    );
  });

  it('keeps the parent as it was when a dynamic child change would collide, and logs it', async () => {
    const child = createApp({ name: 'e', version: '1', providers: [], dynamic: true });
    const { logger, lines } = capturedLogger();
    const app = createApp({ name: 'g', version: '1', providers: [Clash], logger, imports: [{ app: child, prefix: 'billing' }] });
    const client = await TestClient.connect(app);
    child.addProviders([BillingTools]);
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(['billing_charge']);
    expect(firstText(await client.callTool('billing_charge'))).toBe('');
    expect(client.notifications('notifications/tools/list_changed')).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.some((line) => String(line.msg).includes('cannot be published here'))).toBe(true);
  });
});
