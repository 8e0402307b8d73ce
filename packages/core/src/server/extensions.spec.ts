import { DefinitionError } from '../errors/definition-error';
import { AuthenticationRequiredError } from '../errors/access-errors';
import { createApp } from './create-app';
import type { ServerExtension } from '../app/server-extension';

const base = { name: 'ext', version: '1.0.0', providers: [] };

describe('createApp({ extensions })', () => {
  it('declares each extension with its settings, and listChanged on the lists it changes', () => {
    const attached: unknown[] = [];
    const extension: ServerExtension = {
      id: 'io.example/echo',
      settings: { loud: true },
      methods: { 'echo/say': (params) => ({ said: params.text }) },
      listChanged: ['resources'],
      attach: (host) => attached.push(host.bus),
    };
    const app = createApp({ ...base, extensions: [extension] });
    expect(app.capabilities.extensions).toEqual({ 'io.example/echo': { loud: true } });
    expect(app.capabilities.resources).toEqual({ listChanged: true });
    expect(app.methods.has('echo/say')).toBe(true);
    expect(attached).toEqual([app.bus]);
  });

  it('gives a cacheable method its hint, ttlMs 0 and public unless it says otherwise', () => {
    const app = createApp({
      ...base,
      extensions: [{ id: 'io.example/a', methods: { 'a/list': { handler: () => ({}), cache: { ttlMs: 5 } }, 'a/get': () => ({}) } }],
    });
    expect(app.settings.cacheHints.get('a/list')).toEqual({ ttlMs: 5, cacheScope: 'public' });
    expect(app.settings.cacheHints.has('a/get')).toBe(false);
  });

  it('holds requireAuth for extension methods: no caller, no answer', async () => {
    const app = createApp({ ...base, requireAuth: true, extensions: [{ id: 'io.example/a', methods: { 'a/get': () => ({ ok: true }) } }] });
    const handler = app.methods.get('a/get')!;
    expect(() => handler({}, { auth: undefined } as never, {} as never)).toThrow(AuthenticationRequiredError);
    expect(handler({}, { auth: { token: 't', clientId: 'c', scopes: [] } } as never, {} as never)).toEqual({ ok: true });
  });

  it('declares nothing without extensions', () => {
    expect(createApp(base).capabilities.extensions).toBeUndefined();
  });

  it.each([
    ['an id without a prefix', [{ id: 'skills' }]],
    ['an id given twice', [{ id: 'io.example/a' }, { id: 'io.example/a' }]],
    ['a core method', [{ id: 'io.example/a', methods: { 'tools/list': () => ({}) } }]],
    [
      'a method two extensions answer',
      [
        { id: 'io.example/a', methods: { 'x/y': () => ({}) } },
        { id: 'io.example/b', methods: { 'x/y': () => ({}) } },
      ],
    ],
  ])('refuses %s at start-up', (_label, extensions) => {
    expect(() => createApp({ ...base, extensions: extensions as ServerExtension[] })).toThrow(DefinitionError);
  });
});
