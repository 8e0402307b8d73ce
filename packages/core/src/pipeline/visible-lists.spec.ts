import pino from 'pino';
import type { AuthInfo } from '../auth/auth-info';
import { RequireRoles } from '../decorators/require-roles.decorator';
import { RequireScopes } from '../decorators/require-scopes.decorator';
import { Tool } from '../decorators/tool.decorator';
import { UseGuards } from '../decorators/use-guards.decorator';
import type { HandlerContext } from '../dispatcher/handler-context';
import { defineTool } from '../define/define-tool';
import type { AppOptions } from '../app/app-options';
import { createApp } from '../server/create-app';
import { VisibleLists } from './visible-lists';

const silent = pino({ level: 'silent' });

class Notes {
  @Tool({ input: null })
  @RequireScopes('notes:read')
  search() {
    return 'found';
  }

  @Tool({ input: null })
  @RequireScopes('billing', { whenMissing: 'hide' })
  invoice() {
    return 'invoice';
  }

  @Tool({ input: null })
  @RequireRoles('admin')
  purge() {
    return 'purged';
  }

  @Tool({ input: null })
  @RequireRoles('admin', 'ops')
  restart() {
    return 'restarted';
  }
}

/** Counts how often the `roles` claim is read: per-item filtering reads it once per role-guarded item. */
function counted(auth: AuthInfo): { auth: AuthInfo; reads: () => number } {
  let reads = 0;
  const roles = auth.claims?.roles;
  const claims = {
    get roles() {
      reads++;
      return roles;
    },
  };
  return { auth: { ...auth, claims }, reads: () => reads };
}

/** One 2025-11-25 session whose every request names its own credentials, as an HTTP request does. */
async function session(options: Partial<AppOptions> = {}) {
  const app = createApp({ name: 't', version: '1', providers: [Notes], logger: silent, dynamic: true, ...options });
  const connection = app.connect({ kind: 'http' });
  await connection.receive({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
  let id = 1;
  const names = async (auth?: AuthInfo) => {
    const answer = (await connection.receive(
      { jsonrpc: '2.0', id: id++, method: 'tools/list', params: {} },
      { transport: { kind: 'http', ...(auth ? { auth } : {}) } },
    )) as unknown as {
      result: { tools: Array<{ name: string }> };
    };
    return answer.result.tools.map((tool) => tool.name);
  };
  return { app, names };
}

describe('VisibleLists', () => {
  describe('signature', () => {
    const lists = new VisibleLists([], { 'billing:admin': ['billing'] });
    it('tells anonymous from authenticated callers, and ignores what no rule reads', () => {
      expect(lists.signature(undefined)).toBe('');
      expect(lists.signature({ subject: 'a', scopes: ['x'] })).toBe(lists.signature({ subject: 'b', scopes: ['y'], claims: { roles: ['admin'] } }));
    });
  });

  it('filters once per visibility signature: a repeat list by an equivalent caller reads no claim per item', async () => {
    const { names } = await session();
    const first = counted({ subject: 'boss', scopes: [], claims: { roles: ['admin'] } });
    expect(await names(first.auth)).toEqual(['search', 'purge', 'restart']);
    // The signature reads each (claim, role) pair once: admin, ops; the items were filtered once more.
    const firstReads = first.reads();
    const again = counted({ subject: 'other-boss', scopes: ['notes:read'], claims: { roles: ['admin'] } });
    expect(await names(again.auth)).toEqual(['search', 'purge', 'restart']);
    expect(again.reads()).toBe(2);
    expect(firstReads).toBeGreaterThan(again.reads());
  });

  it("recomputes from each request's credentials: a step-up mid-session changes the list", async () => {
    const { names } = await session();
    expect(await names({ subject: 'u', scopes: ['notes:read'] })).toEqual(['search']);
    expect(await names({ subject: 'u', scopes: ['notes:read', 'billing'] })).toEqual(['search', 'invoice']);
    expect(await names({ subject: 'u', scopes: ['notes:read'], claims: { roles: ['ops'] } })).toEqual(['search', 'restart']);
    expect(await names()).toEqual(['search']);
    expect(await names({ subject: 'u', scopes: ['notes:read'] })).toEqual(['search']);
  });

  it('counts implied scopes in the signature', async () => {
    const { names } = await session({ impliedScopes: { 'billing:admin': ['billing'] } });
    expect(await names({ subject: 'u', scopes: ['billing:admin'] })).toEqual(['search', 'invoice']);
  });

  it('is invalidated by a list change (dynamic registration)', async () => {
    const { app, names } = await session();
    const auditor: AuthInfo = { subject: 'a', scopes: ['billing'] };
    expect(await names(auditor)).toEqual(['search', 'invoice']);
    app.addProviders([defineTool({ name: 'audit', requireScopes: { scopes: ['billing'], whenMissing: 'hide' } }, () => 'audited')]);
    expect(await names(auditor)).toEqual(['search', 'invoice', 'audit']);
    expect(await names({ subject: 'b', scopes: [] })).toEqual(['search']);
    app.remove('tool', 'invoice');
    expect(await names(auditor)).toEqual(['search', 'audit']);
  });

  it('still runs guards per request, on what the rules let through', async () => {
    let runs = 0;
    class Tenant {
      canActivate(ctx: HandlerContext) {
        runs++;
        return ctx.auth?.claims?.tenant === 'acme';
      }
    }
    class Guarded {
      @Tool({ input: null })
      @UseGuards(Tenant)
      @RequireRoles('admin')
      wipe() {
        return 'wiped';
      }
    }
    const app = createApp({ name: 't', version: '1', providers: [Guarded, Notes], logger: silent });
    const list = async (auth: AuthInfo) => {
      const connection = app.connect({ kind: 'memory', auth });
      await connection.receive({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
      const answer = (await connection.receive({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} })) as unknown as {
        result: { tools: Array<{ name: string }> };
      };
      return answer.result.tools.map((tool) => tool.name);
    };
    expect(await list({ subject: 'a', scopes: [], claims: { roles: ['admin'], tenant: 'acme' } })).toEqual(['wipe', 'search', 'purge', 'restart']);
    expect(await list({ subject: 'b', scopes: [], claims: { roles: ['admin'], tenant: 'evil' } })).toEqual(['search', 'purge', 'restart']);
    expect(runs).toBe(2);
    // The rule hides it first: the guard is not asked.
    expect(await list({ subject: 'c', scopes: [] })).toEqual(['search']);
    expect(runs).toBe(2);
  });

  it('forgets the least recently used signature past its bound', () => {
    const lists = new VisibleLists([], undefined, 2);
    const pages = [{ tools: [] as string[] }];
    const a = lists.of(pages, 'tools', undefined, undefined);
    lists.of(pages, 'tools', { subject: 'x', scopes: [] }, undefined);
    expect(lists.of(pages, 'tools', undefined, undefined)).toBe(a);
    // Bounded to one: a second signature pushes the first out, which is then computed afresh.
    const viaRoles = new VisibleLists([], undefined, 1);
    const first = viaRoles.of(pages, 'tools', undefined, undefined);
    viaRoles.of(pages, 'tools', { subject: 'x', scopes: [] }, undefined);
    expect(viaRoles.of(pages, 'tools', undefined, undefined)).not.toBe(first);
  });
});
