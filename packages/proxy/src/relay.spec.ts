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
