import { Resource } from '../decorators/resource.decorator';
import { ResourceTemplate } from '../decorators/resource-template.decorator';
import { HandlerContext } from '../dispatcher/handler-context';
import { DefinitionErrorCode } from '../errors/definition-error';
import { request, startupError } from '../../test/memory-app';
import { defineResource } from './define-resource';
import { defineResourceTemplate } from './define-resource-template';

const files = new Map([
  ['readme.md', '# Hello'],
  ['src/index.ts', 'export {};'],
]);

describe('defineResource', () => {
  it('publishes what the same decorated resource publishes', async () => {
    const options = {
      uri: 'files:///readme.md',
      name: 'readme',
      title: 'Read me',
      description: 'The front page',
      mimeType: 'text/markdown',
      size: 7,
      annotations: { audience: ['user' as const], priority: 0.5 },
      cache: { ttlMs: 60_000, scope: 'public' as const },
    };
    class Decorated {
      @Resource(options)
      readme() {
        return '# Hello';
      }
    }
    const defined = defineResource(options, () => '# Hello');
    expect(await request([defined], 'resources/list')).toEqual(await request([Decorated], 'resources/list'));
    expect(await request([defined], 'resources/read', { uri: options.uri })).toEqual(await request([Decorated], 'resources/read', { uri: options.uri }));
  });

  it('defines one resource per entry, each read with its URI and the request context', async () => {
    const seen: unknown[] = [];
    const resources = [...files].map(([path, text]) =>
      defineResource({ uri: `files:///${path}`, name: path, mimeType: 'text/plain' }, (request, ctx) => {
        seen.push(request, ctx);
        return text;
      }),
    );
    expect((await request(resources, 'resources/list')).result).toEqual({
      resources: [
        { uri: 'files:///readme.md', name: 'readme.md', mimeType: 'text/plain' },
        { uri: 'files:///src/index.ts', name: 'src/index.ts', mimeType: 'text/plain' },
      ],
    });
    expect((await request(resources, 'resources/read', { uri: 'files:///src/index.ts' })).result).toEqual({
      contents: [{ uri: 'files:///src/index.ts', mimeType: 'text/plain', text: 'export {};' }],
    });
    expect(seen[0]).toEqual({ uri: 'files:///src/index.ts' });
    expect(seen[1]).toBeInstanceOf(HandlerContext);
  });

  it.each([
    ['a URI without a scheme', { uri: 'readme.md', name: 'readme' }, DefinitionErrorCode.INVALID_URI],
    ['a bad cache hint', { uri: 'files:///a', name: 'a', cache: { ttlMs: -1 } }, DefinitionErrorCode.INVALID_OPTIONS],
  ])('rejects %s at createApp, naming the call', (_, options, code) => {
    const error = startupError([defineResource(options, () => 'x')]);
    expect(error.code).toBe(code);
    expect(error.problem).toContain(`defineResource("${options.name}")`);
  });

  it('clashes with a decorated resource of the same URI', () => {
    class Decorated {
      @Resource({ uri: 'files:///a' })
      a() {
        return 'a';
      }
    }
    const error = startupError([Decorated, defineResource({ uri: 'files:///a', name: 'a' }, () => 'a')]);
    expect(error.code).toBe(DefinitionErrorCode.DUPLICATE_NAME);
    expect(error.problem).toBe('Resource URI "files:///a" is declared twice: by Decorated.a and by defineResource("a").');
  });

  it('throws at the call without a handler', () => {
    expect(() => defineResource({ uri: 'files:///a', name: 'a' }, 'a' as never)).toThrow(
      expect.objectContaining({ code: DefinitionErrorCode.NOT_A_METHOD }) as unknown as Error,
    );
  });
});

describe('defineResourceTemplate', () => {
  it('publishes what the same decorated template publishes', async () => {
    const options = { uriTemplate: 'files:///{+path}' as const, name: 'file', description: 'Any file', mimeType: 'text/plain', cache: { ttlMs: 1_000 } };
    class Decorated {
      @ResourceTemplate(options)
      file({ path }: { path: string }) {
        return files.get(path);
      }
    }
    const defined = defineResourceTemplate(options, ({ path }) => files.get(path));
    expect(await request([defined], 'resources/templates/list')).toEqual(await request([Decorated], 'resources/templates/list'));
    for (const uri of ['files:///src/index.ts', 'files:///missing']) {
      expect(await request([defined], 'resources/read', { uri })).toEqual(await request([Decorated], 'resources/read', { uri }));
    }
  });

  it('hands the handler the variables parsed from the URI', async () => {
    const seen: unknown[] = [];
    const logo = defineResourceTemplate({ uriTemplate: 'logo://{size}{?theme}', name: 'logo', mimeType: 'image/png' }, (variables, ctx) => {
      // Typed from the template: `size` is a string, `theme` may be absent.
      const { size, theme }: { size: string; theme?: string } = variables;
      seen.push(variables, ctx);
      return new Uint8Array([size.length, theme === 'dark' ? 1 : 0]);
    });
    expect((await request([logo], 'resources/read', { uri: 'logo://64?theme=dark' })).result).toEqual({
      contents: [{ uri: 'logo://64?theme=dark', mimeType: 'image/png', blob: 'AgE=' }],
    });
    expect(seen[0]).toEqual({ size: '64', theme: 'dark' });
    expect(seen[1]).toBeInstanceOf(HandlerContext);
  });

  it('rejects a malformed template at createApp with the decorator’s error', () => {
    class Decorated {
      @ResourceTemplate({ uriTemplate: 'notes://{id' })
      note() {
        return 'x';
      }
    }
    const fromDecorator = startupError([Decorated]);
    const fromDefine = startupError([defineResourceTemplate({ uriTemplate: 'notes://{id', name: 'note' }, () => 'x')]);
    expect(fromDefine.code).toBe(DefinitionErrorCode.MALFORMED_URI_TEMPLATE);
    expect(fromDefine.problem).toBe(fromDecorator.problem.replace('@ResourceTemplate on Decorated.note', 'defineResourceTemplate("note")'));
  });

  it('clashes with a decorated template of the same uriTemplate', () => {
    class Decorated {
      @ResourceTemplate({ uriTemplate: 'notes://{id}' })
      note() {
        return 'x';
      }
    }
    expect(startupError([defineResourceTemplate({ uriTemplate: 'notes://{id}', name: 'note' }, () => 'x'), Decorated]).problem).toBe(
      'Resource template "notes://{id}" is declared twice: by defineResourceTemplate("note") and by Decorated.note.',
    );
  });
});
