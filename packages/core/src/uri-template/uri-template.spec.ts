import { ResourceTemplate } from '../decorators/resource-template.decorator';
import { UriTemplate, UriTemplateSyntaxError } from './uri-template';
import type { TemplateVariables } from './template-variables';

describe('UriTemplate', () => {
  describe('match', () => {
    it('reads a simple variable', () => {
      expect(UriTemplate.parse('notes://{id}').match('notes://42')).toEqual({ id: '42' });
    });

    it('percent-decodes values', () => {
      expect(UriTemplate.parse('tags://{name}').match('tags://a%20b')).toEqual({ name: 'a b' });
    });

    it('rejects URIs that do not match', () => {
      const template = UriTemplate.parse('notes://{id}');
      expect(template.match('notes://')).toBeUndefined();
      expect(template.match('notes://1/2')).toBeUndefined();
      expect(template.match('other://1')).toBeUndefined();
    });

    it('treats regex characters in literals literally', () => {
      expect(UriTemplate.parse('a.b+c://{x}').match('a.b+c://1')).toEqual({ x: '1' });
      expect(UriTemplate.parse('a.b+c://{x}').match('aXbbc://1')).toBeUndefined();
    });

    it('lets a reserved expansion span slashes', () => {
      expect(UriTemplate.parse('file:///{+path}').match('file:///src/a b/c.ts')).toEqual({ path: 'src/a b/c.ts' });
    });

    it('reads several variables and path segments', () => {
      expect(UriTemplate.parse('repo://{owner}/{name}{/path*}').match('repo://me/kit/src/index.ts')).toEqual({
        owner: 'me',
        name: 'kit',
        path: ['src', 'index.ts'],
      });
    });

    it('reads query parameters in any order and leaves absent ones out', () => {
      const template = UriTemplate.parse('search://notes{?q,limit}');
      expect(template.match('search://notes?limit=5&q=milk%20tea')).toEqual({ q: 'milk tea', limit: '5' });
      expect(template.match('search://notes')).toEqual({});
    });

    it('reads a fragment and label expansion', () => {
      expect(UriTemplate.parse('doc://{id}{#section}').match('doc://7#intro')).toEqual({ id: '7', section: 'intro' });
      expect(UriTemplate.parse('img://{name}{.ext}').match('img://logo.png')).toEqual({ name: 'logo', ext: 'png' });
    });

    it('refuses malformed percent-encoding instead of throwing', () => {
      expect(UriTemplate.parse('notes://{id}').match('notes://%E0%A4%A')).toBeUndefined();
    });
  });

  describe('parse', () => {
    it.each([
      ['notes://{id', 'unclosed'],
      ['notes://id}', 'unmatched'],
      ['notes://{}', 'empty'],
      ['notes://{a b}', 'bad variable'],
      ['notes://{=x}', 'reserved'],
      ['notes://{id}/{id}', 'twice'],
      ['notes://{x:0}', 'prefix'],
    ])('rejects %s', (template, fragment) => {
      expect(() => UriTemplate.parse(template)).toThrow(UriTemplateSyntaxError);
      expect(() => UriTemplate.parse(template)).toThrow(fragment);
    });
  });

  it('types the variables from the template', () => {
    const vars: TemplateVariables<'repo://{owner}{/path*}{?rev}'> = { owner: 'me', path: ['a'] };
    const owner: string = vars.owner;
    const rev: string | undefined = vars.rev;
    expect([owner, rev]).toEqual(['me', undefined]);
    // @ts-expect-error: `name` is not a variable of this template
    const wrong: TemplateVariables<'notes://{id}'> = { name: 'x' };
    expect(wrong).toBeDefined();
  });
});

describe('@ResourceTemplate typing', () => {
  it('accepts a handler whose variables match the template and refuses one that does not', () => {
    // Compile-time checks: ts-jest type-checks this file.
    class Good {
      @ResourceTemplate({ uriTemplate: 'notes://{id}{?rev}' })
      read(vars: { id: string; rev?: string }) {
        return vars.id;
      }
    }
    class Bad {
      // @ts-expect-error: the template has no variable `name`
      @ResourceTemplate({ uriTemplate: 'notes://{id}' })
      read(vars: { name: string }) {
        return vars.name;
      }
    }
    expect([Good, Bad]).toHaveLength(2);
  });
});
