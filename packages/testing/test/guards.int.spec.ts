import {
  Complete,
  createApp,
  DefinitionError,
  ErrorCode,
  Prompt,
  Public,
  RateLimit,
  RequireRoles,
  RequireScopes,
  Resource,
  ResourceTemplate,
  Tool,
  UseFilters,
  UseGuards,
  UseInterceptors,
  type AuthInfo,
  type CallTarget,
  type ExceptionFilter,
  type Guard,
  type Interceptor,
  type RequestContext,
} from '@mcpkit/core';
import { IsString, MinLength } from 'class-validator';
import pino from 'pino';
import { firstText, RpcError, TestClient } from '../src';
import { capturedLogger } from './support/captured-logger';

const order: string[] = [];

class Named {
  @IsString()
  @MinLength(2)
  name: string;
}

class AppGuard implements Guard {
  canActivate(_ctx: RequestContext, target: CallTarget) {
    if (target.operation !== 'list') order.push(`guard:app:${target.operation}`);
    return true;
  }
}
class ClassGuard implements Guard {
  canActivate(_ctx: RequestContext, target: CallTarget) {
    if (target.operation !== 'list') order.push('guard:class');
    return true;
  }
}
class MethodGuard implements Guard {
  canActivate(_ctx: RequestContext, target: CallTarget) {
    if (target.operation !== 'list') order.push('guard:method');
    return true;
  }
}
const tracing = (label: string): Interceptor => ({
  async intercept(_ctx, next) {
    order.push(`before:${label}`);
    const value = await next();
    order.push(`after:${label}`);
    return value;
  },
});
const filter = (label: string, answer?: string): ExceptionFilter => ({
  catch(error) {
    order.push(`filter:${label}`);
    if (answer !== undefined) return answer;
    throw error;
  },
});

@UseGuards(ClassGuard)
@UseInterceptors(tracing('class'))
@UseFilters(filter('class'))
class Ordered {
  @Tool()
  @UseGuards(MethodGuard)
  @UseInterceptors(tracing('method'))
  @UseFilters(filter('method'))
  greet(input: Named) {
    order.push('handler');
    return `hello ${input.name}`;
  }

  @Tool()
  @UseFilters(filter('method'))
  broken() {
    order.push('handler');
    throw new Error('boom');
  }
}

class Throws implements Guard {
  canActivate(): boolean {
    throw new Error('guard exploded');
  }
}
class Hides implements Guard {
  canActivate(ctx: RequestContext) {
    return ctx.auth?.subject === 'owner' ? true : 'hide';
  }
}
class Refuses implements Guard {
  canActivate(ctx: RequestContext) {
    return ctx.auth?.subject === 'owner';
  }
}

class AdminPromptArgs {
  @IsString()
  x: string;
}

class Notes {
  @Tool()
  @RequireScopes('notes:read')
  search_notes(input: Named) {
    return `found ${input.name}`;
  }

  @Tool()
  @RequireScopes('notes:write', 'notes:read')
  create_note(input: Named) {
    return `created ${input.name}`;
  }

  @Tool()
  @RequireRoles('admin')
  delete_note(input: Named) {
    return `deleted ${input.name}`;
  }

  @Tool()
  @RequireScopes('billing', { whenMissing: 'hide' })
  invoice() {
    return 'invoice';
  }

  @Tool()
  @RequireScopes('a', 'b', { match: 'any' })
  either() {
    return 'either';
  }

  @Tool()
  @UseGuards(Throws)
  fragile() {
    return 'never';
  }

  @Tool()
  @UseGuards(Hides)
  secret() {
    return 'secret';
  }

  @Tool()
  @UseGuards(Refuses)
  owners_only() {
    return 'mine';
  }

  @Prompt()
  @RequireRoles('admin')
  admin_prompt(_args: AdminPromptArgs) {
    return 'admin prompt';
  }

  @Prompt()
  open_prompt() {
    return 'open prompt';
  }

  @Resource({ uri: 'notes://admin' })
  @RequireRoles('admin')
  adminResource() {
    return 'admin resource';
  }

  @ResourceTemplate({ uriTemplate: 'secret://{id}' })
  @RequireRoles('admin')
  secretTemplate({ id }: { id: string }) {
    return `secret ${id}`;
  }

  @Complete({ prompt: 'admin_prompt', argument: 'x' })
  completeNothing() {
    return [];
  }
}

const reader: AuthInfo = { subject: 'reader', clientId: 'cli', scopes: ['notes:read'] };
const writer: AuthInfo = { subject: 'writer', scopes: ['notes:read', 'notes:write'] };
const admin: AuthInfo = { subject: 'owner', scopes: ['notes:read'], claims: { roles: ['admin'] } };

function silent() {
  return pino({ level: 'silent' });
}

async function rejection(promise: Promise<unknown>): Promise<{ code: number; message: string; data?: unknown }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof RpcError) return { code: error.code, message: error.message, data: error.data };
    throw error;
  }
  throw new Error('expected a JSON-RPC error');
}

describe.each(['legacy', 'modern'] as const)('the pipeline (%s era)', (era) => {
  const notes = createApp({ name: 'notes', version: '1.0.0', providers: [Notes], logger: silent() });
  const connect = (auth?: AuthInfo) => TestClient.connect(notes, { era, auth });

  beforeEach(() => order.splice(0));

  it('runs guards, interceptors, validation, the handler and filters in order (architecture.md §8)', async () => {
    const app = createApp({
      name: 'ordered',
      version: '1.0.0',
      providers: [Ordered],
      logger: silent(),
      guards: [AppGuard],
      interceptors: [tracing('app')],
      filters: [filter('app')],
    });
    const client = await TestClient.connect(app, { era });
    expect(firstText(await client.callTool('greet', { name: 'Ada' }))).toBe('hello Ada');
    expect(order).toEqual([
      'guard:app:call',
      'guard:class',
      'guard:method',
      'before:app',
      'before:class',
      'before:method',
      'handler',
      'after:method',
      'after:class',
      'after:app',
    ]);
    order.splice(0);
    const failed = await client.callTool('broken');
    expect(failed.isError).toBe(true);
    expect(order).toEqual(['guard:app:call', 'guard:class', 'before:app', 'before:class', 'handler', 'filter:method', 'filter:class', 'filter:app']);
  });

  it('lets a filter answer instead of the error', async () => {
    class Rescued {
      @Tool()
      @UseFilters(filter('rescue', 'rescued'))
      broken() {
        throw new Error('boom');
      }
    }
    const client = await TestClient.connect(createApp({ name: 'r', version: '1', providers: [Rescued], logger: silent() }), { era });
    expect(firstText(await client.callTool('broken'))).toBe('rescued');
  });

  it('authorizes before validation: a hidden tool with invalid arguments is an unknown tool (case 16)', async () => {
    const client = await connect(reader);
    const hidden = await rejection(client.callTool('delete_note', { name: 1 }));
    const unknown = await rejection(client.callTool('delete_notf', { name: 1 }));
    expect(hidden).toEqual({ code: ErrorCode.InvalidParams, message: 'Unknown tool: delete_note' });
    expect({ ...unknown, message: unknown.message.replace('delete_notf', 'delete_note') }).toEqual(hidden);
  });

  it('challenges a caller without the scopes, naming all of them (A10, case 12)', async () => {
    const client = await connect(reader);
    const denied = await rejection(client.callTool('create_note', { name: 'xy' }));
    expect(denied).toEqual({
      code: ErrorCode.AccessDenied,
      message: 'Insufficient scope: needs notes:write notes:read',
      data: { error: 'insufficient_scope', scopes: ['notes:write', 'notes:read'] },
    });
    // A challenge never reaches validation either.
    expect((await rejection(client.callTool('create_note', { name: 1 }))).code).toBe(ErrorCode.AccessDenied);
    const anonymous = await connect();
    expect(await rejection(anonymous.callTool('search_notes', { name: 'xy' }))).toEqual({
      code: ErrorCode.AccessDenied,
      message: 'Authentication required',
      data: { error: 'authentication_required', scopes: ['notes:read'] },
    });
  });

  it('lets a caller with the scopes, roles or any-of scopes through', async () => {
    expect(firstText(await (await connect(writer)).callTool('create_note', { name: 'xy' }))).toBe('created xy');
    expect(firstText(await (await connect(admin)).callTool('delete_note', { name: 'xy' }))).toBe('deleted xy');
    expect(firstText(await (await connect({ subject: 's', scopes: ['b'] })).callTool('either'))).toBe('either');
    const invalid = await (await connect(writer)).callTool('create_note', { name: 1 });
    expect(invalid.isError).toBe(true);
    expect(firstText(invalid)).toContain('Invalid arguments for tool create_note');
  });

  it('honours impliedScopes (A11, case 13)', async () => {
    const app = createApp({
      name: 'n',
      version: '1',
      providers: [Notes],
      logger: silent(),
      impliedScopes: { 'notes:admin': ['notes:write'], 'notes:write': ['notes:read'] },
    });
    const client = await TestClient.connect(app, { era, auth: { subject: 'boss', scopes: ['notes:admin'] } });
    expect(firstText(await client.callTool('create_note', { name: 'xy' }))).toBe('created xy');
  });

  it('denies when a guard throws (fail closed) and logs it once (case 15)', async () => {
    const { logger, lines } = capturedLogger();
    const app = createApp({ name: 'n', version: '1', providers: [Notes], logger });
    const client = await TestClient.connect(app, { era, auth: admin, logger });
    expect(await rejection(client.callTool('fragile'))).toEqual({ code: ErrorCode.AccessDenied, message: 'Forbidden', data: { error: 'forbidden' } });
    const errors = lines.filter((line) => (line.level as number) >= 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ msg: 'guard threw; access denied', guard: 'Throws' });
    // In a list, the same guard hides the item.
    expect((await client.listTools()).map((tool) => tool.name)).not.toContain('fragile');
  });

  it('answers a guard saying false with ForbiddenError and "hide" as an unknown tool', async () => {
    const stranger = await connect(reader);
    expect((await rejection(stranger.callTool('owners_only'))).data).toEqual({ error: 'forbidden' });
    expect(await rejection(stranger.callTool('secret'))).toEqual({ code: ErrorCode.InvalidParams, message: 'Unknown tool: secret' });
    expect(firstText(await (await connect(admin)).callTool('secret'))).toBe('secret');
  });

  it('lists only what the caller may see, and challenge items stay listed (A17, case 10)', async () => {
    const names = async (auth?: AuthInfo) => (await (await connect(auth)).listTools()).map((tool) => tool.name);
    // A guard saying false leaves the item out of lists too; only 'hide' also makes a call answer "unknown".
    expect(await names(reader)).toEqual(['search_notes', 'create_note', 'either']);
    expect(await names(admin)).toEqual(['search_notes', 'create_note', 'delete_note', 'either', 'secret', 'owners_only']);
    expect(await names({ subject: 'payer', scopes: ['billing'] })).toEqual(['search_notes', 'create_note', 'invoice', 'either']);
    expect(await names()).toEqual(['search_notes', 'create_note', 'either']);
  });

  it('hides prompts, resources and templates alike, for get, read and complete (case 11)', async () => {
    const client = await connect(reader);
    expect((await client.listPrompts()).map((prompt) => prompt.name)).toEqual(['open_prompt']);
    expect(await client.listResources()).toEqual([]);
    expect(await client.listResourceTemplates()).toEqual([]);
    const hiddenPrompt = await rejection(client.getPrompt('admin_prompt', { x: 'y' }));
    expect(hiddenPrompt).toEqual({ code: ErrorCode.InvalidParams, message: 'Unknown prompt: admin_prompt' });
    const unknownResource = await rejection(client.readResource('notes://nothing'));
    const hiddenResource = await rejection(client.readResource('notes://admin'));
    expect(hiddenResource.code).toBe(unknownResource.code);
    expect(hiddenResource).toEqual({ ...unknownResource, data: { uri: 'notes://admin' } });
    const hiddenTemplate = await rejection(client.readResource('secret://1'));
    expect(hiddenTemplate).toEqual({ ...unknownResource, data: { uri: 'secret://1' } });
    expect(await rejection(client.complete({ type: 'ref/prompt', name: 'admin_prompt' }, { name: 'x', value: '' }))).toEqual({
      code: ErrorCode.InvalidParams,
      message: 'Unknown prompt: admin_prompt',
    });
    expect(await rejection(client.complete({ type: 'ref/resource', uri: 'secret://{id}' }, { name: 'id', value: '' }))).toEqual({
      code: ErrorCode.InvalidParams,
      message: 'Unknown resource template: secret://{id}',
    });
    const boss = await connect(admin);
    expect((await boss.getPrompt('admin_prompt', { x: 'y' })).messages[0].content).toEqual({ type: 'text', text: 'admin prompt' });
    expect((await boss.readResource('secret://7')).contents[0]).toMatchObject({ text: 'secret 7' });
  });

  it('lets anonymous callers see and use only @Public() items under requireAuth (case 14)', async () => {
    class Mixed {
      @Public()
      @Tool()
      status() {
        return 'up';
      }

      @Tool()
      private_tool() {
        return 'private';
      }
    }
    const app = createApp({ name: 'm', version: '1', providers: [Mixed], logger: silent(), requireAuth: true });
    const anonymous = await TestClient.connect(app, { era });
    expect((await anonymous.listTools()).map((tool) => tool.name)).toEqual(['status']);
    expect(firstText(await anonymous.callTool('status'))).toBe('up');
    expect((await rejection(anonymous.callTool('private_tool'))).data).toEqual({ error: 'authentication_required' });
    const known = await TestClient.connect(app, { era, auth: reader });
    expect((await known.listTools()).map((tool) => tool.name)).toEqual(['status', 'private_tool']);
  });

  it('rate-limits per caller with an isError result and the wait in _meta', async () => {
    class Limited {
      @Tool()
      @RateLimit({ limit: 2, windowMs: 60_000 })
      limited() {
        return 'limited:ok';
      }
    }
    const app = createApp({ name: 'l', version: '1', providers: [Limited], logger: silent() });
    const alice = await TestClient.connect(app, { era, auth: { subject: 'alice', scopes: [] } });
    const bob = await TestClient.connect(app, { era, auth: { subject: 'bob', scopes: [] } });
    expect(firstText(await alice.callTool('limited'))).toBe('limited:ok');
    expect(firstText(await alice.callTool('limited'))).toBe('limited:ok');
    const over = await alice.callTool('limited');
    expect(over.isError).toBe(true);
    expect(firstText(over)).toBe('rate limit: retry in 30 s');
    expect((over._meta as Record<string, { retryAfterMs: number }>)['io.mcpkit/rateLimit'].retryAfterMs).toBeGreaterThan(29_000);
    expect(firstText(await bob.callTool('limited'))).toBe('limited:ok');
  });

  it("rate-limits by tool, by a key function and by the app's default; a method's limit wins over its class's", async () => {
    @RateLimit({ limit: 1, windowMs: 60_000, by: 'tool' })
    class Limits {
      // The class's limit: one call a minute for everyone together.
      @Tool()
      shared() {
        return 'shared:ok';
      }

      @Tool()
      @RateLimit({ limit: 2, windowMs: 60_000, by: (ctx) => `tenant:${String(ctx.auth?.claims?.tenant)}` })
      tenant() {
        return 'tenant:ok';
      }
    }
    class Plain {
      @Tool()
      plain() {
        return 'plain:ok';
      }
    }
    const app = createApp({ name: 'l', version: '1', providers: [Limits, Plain], logger: silent(), rateLimit: { limit: 1, windowMs: 60_000 } });
    const caller = (subject: string, tenant: string) => TestClient.connect(app, { era, auth: { subject, scopes: [], claims: { tenant } } });
    const [ann, bo, cy] = await Promise.all([caller('ann', 'acme'), caller('bo', 'acme'), caller('cy', 'globex')]);
    const limited = (result: Awaited<ReturnType<TestClient['callTool']>>) => result.isError === true && /^rate limit: retry in \d+ s$/.test(firstText(result));

    // by: 'tool': another caller shares the bucket.
    expect(firstText(await ann.callTool('shared'))).toBe('shared:ok');
    expect(limited(await bo.callTool('shared'))).toBe(true);
    // by: a function: the tenant's two calls, whoever makes them; another tenant has its own.
    expect(firstText(await ann.callTool('tenant'))).toBe('tenant:ok');
    expect(firstText(await bo.callTool('tenant'))).toBe('tenant:ok');
    expect(limited(await ann.callTool('tenant'))).toBe(true);
    expect(firstText(await cy.callTool('tenant'))).toBe('tenant:ok');
    // The app's default, per caller, on a tool that declares none.
    expect(firstText(await ann.callTool('plain'))).toBe('plain:ok');
    expect(limited(await ann.callTool('plain'))).toBe(true);
    expect(firstText(await bo.callTool('plain'))).toBe('plain:ok');
  });
});

describe('per-caller lists and cache hints (2026-07-28)', () => {
  it('sends a caller-varying list with cacheScope private on every page (A18)', async () => {
    const app = createApp({ name: 'n', version: '1', providers: [Notes], logger: silent(), pageSize: 2 });
    const client = await TestClient.connect(app, { era: 'modern', auth: admin });
    const first = await client.request<Record<string, unknown>>('tools/list');
    expect(first).toMatchObject({ cacheScope: 'private', nextCursor: expect.any(String) });
    expect((first.tools as unknown[]).length).toBe(2);
    const second = await client.request<Record<string, unknown>>('tools/list', { cursor: first.nextCursor });
    expect(second).toMatchObject({ cacheScope: 'private' });
    // Filtered before pagination: the reader's pages hold only what the reader sees.
    const readerClient = await TestClient.connect(app, { era: 'modern', auth: reader });
    const pages: string[] = [];
    let cursor: unknown;
    do {
      const page = await readerClient.request<{ tools: Array<{ name: string }>; nextCursor?: string }>('tools/list', cursor ? { cursor } : {});
      pages.push(...page.tools.map((tool) => tool.name));
      cursor = page.nextCursor;
    } while (cursor);
    expect(pages).toEqual(['search_notes', 'create_note', 'either']);
  });

  it('keeps a list no rule filters public', async () => {
    class Plain {
      @Tool()
      @RequireScopes('x')
      challenged() {
        return 'c';
      }
    }
    const client = await TestClient.connect(createApp({ name: 'p', version: '1', providers: [Plain], logger: silent() }), { era: 'modern' });
    expect(await client.request('tools/list')).toMatchObject({ cacheScope: 'public' });
  });

  it('refuses a public list hint on a caller-varying list at start-up', () => {
    expect(() => createApp({ name: 'n', version: '1', providers: [Notes], logger: silent(), cache: { lists: { scope: 'public' } } })).toThrow(DefinitionError);
    expect(() => createApp({ name: 'n', version: '1', providers: [Notes], logger: silent(), cache: { lists: { scope: 'public' } } })).toThrow(
      /tools, prompts, resources, templates list varies by caller/,
    );
  });
});

describe('pipeline declarations', () => {
  it('refuses parts without their method at decoration and at createApp', () => {
    expect(() => UseGuards({} as Guard)).toThrow(/has no canActivate method/);
    expect(() => RequireScopes()).toThrow(/needs one or more non-empty strings/);
    expect(() => RateLimit({ limit: 0, windowMs: 1000 })).toThrow(/limit 0 is not a positive integer/);
    expect(() => createApp({ name: 'x', version: '1', providers: [], guards: [{} as Guard] })).toThrow(/has no canActivate method/);
    expect(() => createApp({ name: 'x', version: '1', providers: [], rateLimit: { limit: 1, windowMs: -1 } })).toThrow(
      /option "rateLimit\.windowMs" must be a number > 0 \(got -1\)/,
    );
  });

  it('builds no pipeline for an app that declares none', () => {
    class Bare {
      @Tool()
      bare() {
        return 'bare';
      }
    }
    expect(createApp({ name: 'b', version: '1', providers: [Bare], logger: silent() }).pipelines).toBeUndefined();
  });
});
