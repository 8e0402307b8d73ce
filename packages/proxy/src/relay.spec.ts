import type { McpClient } from '@mcpkit/client';
import type { RequestContext } from '@mcpkit/core';
import { expandTemplate } from './expand-template';
import { offered } from './proxy-options';
import { QuestionRelay } from './relay';

const signal = new AbortController().signal;
const ctxAnswering = (roots: unknown) => ({ roots: () => Promise.resolve(roots) }) as unknown as RequestContext;

describe('QuestionRelay', () => {
  it('asks the caller of the call the tag names', async () => {
    const relay = new QuestionRelay();
    const first = relay.open({ ctx: ctxAnswering(['a']), fail: () => undefined });
    relay.open({ ctx: ctxAnswering(['b']), fail: () => undefined });
    await expect(relay.handlers['roots/list']!({}, { method: 'roots/list', signal, call: { method: 'tools/call', tag: first.tag } })).resolves.toEqual({
      roots: ['a'],
    });
  });

  it('asks the only call in flight when the protocol relates none, and refuses when it cannot tell', async () => {
    const relay = new QuestionRelay();
    const only = relay.open({ ctx: ctxAnswering(['only']), fail: () => undefined });
    await expect(relay.handlers['roots/list']!({}, { method: 'roots/list', signal })).resolves.toEqual({ roots: ['only'] });
    relay.open({ ctx: ctxAnswering(['other']), fail: () => undefined });
    await expect(relay.handlers['roots/list']!({}, { method: 'roots/list', signal })).rejects.toMatchObject({
      code: -32600,
      message: expect.stringContaining('not related to a call'),
    });
    only.done();
    await expect(relay.handlers['roots/list']!({}, { method: 'roots/list', signal, call: { method: 'tools/call', tag: 999 } })).rejects.toMatchObject({
      code: -32600,
    });
  });

  it("ends the gateway's call with the caller's failure, and answers the remote with an error", async () => {
    const relay = new QuestionRelay();
    const failed: unknown[] = [];
    const refusal = new Error('no roots capability');
    relay.open({ ctx: { roots: () => Promise.reject(refusal) } as unknown as RequestContext, fail: (error) => void failed.push(error) });
    await expect(relay.handlers['roots/list']!({}, { method: 'roots/list', signal })).rejects.toMatchObject({
      message: expect.stringContaining('no roots capability'),
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(failed).toEqual([refusal]);
  });
});

describe('QuestionRelay.caughtUp', () => {
  const refuse = async (relay: QuestionRelay) => {
    relay.open({ ctx: { roots: () => Promise.reject(new Error('input required')) } as unknown as RequestContext, fail: () => undefined });
    await Promise.resolve(relay.handlers['roots/list']!({}, { method: 'roots/list', signal })).catch(() => undefined);
  };
  const clientOf = (era: 'legacy' | 'modern', answer: () => Promise<unknown>) => {
    const pings: string[] = [];
    const client = { era, request: (method: string) => (pings.push(method), answer()) } as unknown as McpClient;
    return { client, pings };
  };

  it('pings a legacy remote once after a refusal, the calls of that moment waiting for the same answer', async () => {
    const relay = new QuestionRelay();
    const { client, pings } = clientOf('legacy', () => Promise.resolve({}));
    await relay.caughtUp(client);
    expect(pings).toEqual([]);
    await refuse(relay);
    await Promise.all([relay.caughtUp(client), relay.caughtUp(client)]);
    expect(pings).toEqual(['ping']);
    await relay.caughtUp(client);
    expect(pings).toEqual(['ping']);
  });

  it('lets the calls go when the ping fails, and never pings a modern remote', async () => {
    const legacy = clientOf('legacy', () => Promise.reject(new Error('no answer within 2000 ms')));
    const relay = new QuestionRelay();
    await refuse(relay);
    await expect(relay.caughtUp(legacy.client)).resolves.toBeUndefined();
    expect(legacy.pings).toEqual(['ping']);
    const modern = clientOf('modern', () => Promise.resolve({}));
    const another = new QuestionRelay();
    await refuse(another);
    await another.caughtUp(modern.client);
    expect(modern.pings).toEqual([]);
  });
});

describe('expandTemplate', () => {
  it.each([
    ['test://template/{id}/data', { id: 'a b' }, 'test://template/a%20b/data'],
    ['files://{+path}', { path: 'src/a b.ts' }, 'files://src/a%20b.ts'],
    ['api://items{?q,limit}', { q: 'x&y', limit: '3' }, 'api://items?q=x%26y&limit=3'],
    ['api://items{?q,limit}', { limit: '3' }, 'api://items?limit=3'],
    ['api://{/segments*}', { segments: ['a', 'b'] }, 'api:///a/b'],
  ])('%s with %j is %s', (template, variables, uri) => {
    expect(expandTemplate(template, variables)).toBe(uri);
  });
});

describe('offered', () => {
  it('keeps what include names and exclude does not', () => {
    expect(offered('echo', {})).toBe(true);
    expect(offered('echo', { include: ['echo'] })).toBe(true);
    expect(offered('add', { include: ['echo', /^sub/] })).toBe(false);
    expect(offered('subtract', { include: ['echo', /^sub/], exclude: ['subtract'] })).toBe(false);
  });
});
