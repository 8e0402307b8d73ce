import pino from 'pino';
import type { AuthInfo } from '../auth/auth-info';
import type { CallTarget, ExceptionFilter, Guard, Interceptor } from '../decorators/pipeline-types';
import { DefinitionError } from '../errors/definition-error';
import type { Provider } from '../scanner/scan-providers';
import { createApp } from '../server/create-app';
import type { AppOptions } from '../app/app-options';
import { definePrompt } from './define-prompt';
import { defineResource } from './define-resource';
import { defineResourceTemplate } from './define-resource-template';
import { defineTool } from './define-tool';

const silent = pino({ level: 'silent' });
const reader: AuthInfo = { subject: 'reader', scopes: ['notes:read'] };
const writer: AuthInfo = { subject: 'writer', scopes: ['notes:read', 'notes:write'] };
const admin: AuthInfo = { subject: 'admin', scopes: [], claims: { roles: ['admin'] } };

type Answer = { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };

/** A caller of a fresh app of `providers`, on an initialized 2025-11-25 memory connection. */
async function callerOf(providers: Provider[], auth?: AuthInfo, options: Partial<AppOptions> = {}) {
  const app = createApp({ name: 't', version: '1', providers, logger: silent, ...options });
  const connection = app.connect(auth ? { kind: 'memory', auth } : { kind: 'memory' });
  await connection.receive({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
  let id = 1;
  return (method: string, params: Record<string, unknown> = {}) => connection.receive({ jsonrpc: '2.0', id: id++, method, params }) as Promise<Answer>;
}

const text = (answer: Answer) => (answer.result?.content as Array<{ text: string }>)[0].text;
const names = async (call: Awaited<ReturnType<typeof callerOf>>, list: string, key: string) =>
  ((await call(list)).result![key] as Array<{ name: string }>).map((item) => item.name);

describe('define* pipeline options', () => {
  it('requireScopes challenges like @RequireScopes, naming every scope', async () => {
    const create = defineTool({ name: 'create_note', requireScopes: ['notes:write', 'notes:read'] }, () => 'created');
    const denied = await (await callerOf([create], reader))('tools/call', { name: 'create_note', arguments: {} });
    expect(denied.error).toEqual({
      code: -31001,
      message: 'Insufficient scope: needs notes:write notes:read',
      data: { error: 'insufficient_scope', scopes: ['notes:write', 'notes:read'] },
    });
    expect(text(await (await callerOf([create], writer))('tools/call', { name: 'create_note', arguments: {} }))).toBe('created');
  });

  it("requireScopes with whenMissing: 'hide' and requireRoles hide the item from lists and calls", async () => {
    const invoice = defineTool({ name: 'invoice', requireScopes: { scopes: ['billing', 'admin'], match: 'any', whenMissing: 'hide' } }, () => 'invoice');
    const remove = defineTool({ name: 'delete_note', requireRoles: { roles: ['admin'], claim: 'roles' } }, () => 'deleted');
    const open = defineTool({ name: 'open' }, () => 'open');
    const stranger = await callerOf([invoice, remove, open], reader);
    expect(await names(stranger, 'tools/list', 'tools')).toEqual(['open']);
    expect((await stranger('tools/call', { name: 'delete_note', arguments: {} })).error).toEqual({ code: -32602, message: 'Unknown tool: delete_note' });
    const boss = await callerOf([invoice, remove, open], { ...admin, scopes: ['admin'] });
    expect(await names(boss, 'tools/list', 'tools')).toEqual(['invoice', 'delete_note', 'open']);
    expect(text(await boss('tools/call', { name: 'delete_note', arguments: {} }))).toBe('deleted');
  });

  it('runs guards, interceptors and filters after the app-wide ones, in the decorators order', async () => {
    const order: string[] = [];
    const guard = (label: string): Guard => ({
      canActivate: (_ctx, target: CallTarget) => (target.operation === 'list' ? true : (order.push(`guard:${label}`), true)),
    });
    const around = (label: string): Interceptor => ({
      async intercept(_ctx, next) {
        order.push(`before:${label}`);
        const value = await next();
        order.push(`after:${label}`);
        return value;
      },
    });
    const rescue = (label: string, answer?: string): ExceptionFilter => ({
      catch(error) {
        order.push(`filter:${label}`);
        if (answer !== undefined) return answer;
        throw error;
      },
    });
    const tool = defineTool({ name: 'broken', guards: [guard('tool')], interceptors: [around('tool')], filters: [rescue('tool')] }, () => {
      order.push('handler');
      throw new Error('boom');
    });
    const call = await callerOf([tool], undefined, { guards: [guard('app')], interceptors: [around('app')], filters: [rescue('app', 'rescued')] });
    expect(text(await call('tools/call', { name: 'broken', arguments: {} }))).toBe('rescued');
    expect(order).toEqual(['guard:app', 'guard:tool', 'before:app', 'before:tool', 'handler', 'filter:tool', 'filter:app']);
  });

  it('public lets anonymous callers use the item when the app requires auth', async () => {
    const status = defineTool({ name: 'status', public: true }, () => 'up');
    const secret = defineTool({ name: 'secret' }, () => 'secret');
    const anonymous = await callerOf([status, secret], undefined, { requireAuth: true });
    expect(text(await anonymous('tools/call', { name: 'status', arguments: {} }))).toBe('up');
    expect((await anonymous('tools/call', { name: 'secret', arguments: {} })).error?.data).toEqual({ error: 'authentication_required' });
  });

  it('rateLimit limits like @RateLimit', async () => {
    const limited = defineTool({ name: 'limited', rateLimit: { limit: 1, windowMs: 60_000 } }, () => 'limited:ok');
    const call = await callerOf([limited], reader);
    expect(text(await call('tools/call', { name: 'limited', arguments: {} }))).toBe('limited:ok');
    const second = await call('tools/call', { name: 'limited', arguments: {} });
    expect(second.result?.isError).toBe(true);
    expect(text(second)).toMatch(/^rate limit: retry in \d+ s$/);
  });

  it('applies to definePrompt, defineResource and defineResourceTemplate', async () => {
    const prompt = definePrompt({ name: 'admin_prompt', requireRoles: ['admin'] }, () => 'p');
    const resource = defineResource({ name: 'admin', uri: 'notes://admin', requireRoles: ['admin'] }, () => 'r');
    const template = defineResourceTemplate({ name: 'secret', uriTemplate: 'secret://{id}', requireScopes: { scopes: ['s'], whenMissing: 'hide' } }, () => 't');
    const providers = [prompt, resource, template];
    const stranger = await callerOf(providers, reader);
    expect(await names(stranger, 'prompts/list', 'prompts')).toEqual([]);
    expect(await names(stranger, 'resources/list', 'resources')).toEqual([]);
    expect(await names(stranger, 'resources/templates/list', 'resourceTemplates')).toEqual([]);
    expect((await stranger('prompts/get', { name: 'admin_prompt' })).error?.code).toBe(-32602);
    const boss = await callerOf(providers, { ...admin, scopes: ['s'] });
    expect(await names(boss, 'prompts/list', 'prompts')).toEqual(['admin_prompt']);
    expect(await names(boss, 'resources/list', 'resources')).toEqual(['admin']);
    expect(await names(boss, 'resources/templates/list', 'resourceTemplates')).toEqual(['secret']);
  });

  it('checks the options as the decorators check their arguments', () => {
    expect(() => defineTool({ name: 'x', guards: [{} as Guard] }, () => 'x')).toThrow(DefinitionError);
    expect(() => defineTool({ name: 'x', requireScopes: [] }, () => 'x')).toThrow(/@RequireScopes needs one or more non-empty strings/);
    expect(() => defineTool({ name: 'x', rateLimit: { limit: 0, windowMs: 1 } }, () => 'x')).toThrow(/rate limit of @RateLimit is invalid/);
  });
});
