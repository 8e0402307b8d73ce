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

    it('reads every shape of expression, several variables and literals between them', () => {
      const template = UriTemplate.parse('x://{a,b}/{+c}/-{.d,e}-{/f*}-{;g,h}{?i}{&j*}{#k}');
      expect(template.match('x://1,2/p/q/-.s.t-/u/v-;g=7;h=8?i=%2F&j=9&j=10#frag')).toEqual({
        a: '1',
        b: '2',
        c: 'p/q',
        d: 's',
        e: 't',
        f: ['u', 'v'],
        g: '7',
        h: '8',
        i: '/',
        j: ['9', '10'],
        k: 'frag',
      });
    });
  });

  describe('lists, only where the template says so (#26 review, finding 8)', () => {
    // Before: the first item was kept and the rest dropped (notes://1,999 read note 1).
    it('does not read a list into a scalar {x} or {/x}: a comma or slash in a string value is percent-encoded', () => {
      expect(UriTemplate.parse('notes://{id}').match('notes://1,999')).toBeUndefined();
      expect(UriTemplate.parse('notes://{id}').match('notes://1,../../x')).toBeUndefined();
      expect(UriTemplate.parse('notes://{id}').match('notes://1%2C999')).toEqual({ id: '1,999' });
      expect(UriTemplate.parse('x://{a,b}').match('x://1,2,3')).toBeUndefined();
      expect(UriTemplate.parse('repo://{owner}{/name}').match('repo://me/a/b')).toBeUndefined();
      expect(UriTemplate.parse('repo://{owner}{/name}').match('repo://me/a%2Fb')).toEqual({ owner: 'me', name: 'a/b' });
    });

    it('keeps a comma in the value of {+x} and {#x}, and a dot in the value of {.x}, where a string may hold them', () => {
      expect(UriTemplate.parse('files:///{+path}').match('files:///docs/a,b.md')).toEqual({ path: 'docs/a,b.md' });
      expect(UriTemplate.parse('s://{#frag}').match('s://#a,b')).toEqual({ frag: 'a,b' });
      expect(UriTemplate.parse('x://{+a,b}').match('x://1,2,3')).toEqual({ a: '1', b: '2,3' });
      expect(UriTemplate.parse('img://{name}{.ext}').match('img://archive.tar.gz')).toEqual({ name: 'archive', ext: 'tar.gz' });
    });

    it('reads a list into an exploded variable', () => {
      expect(UriTemplate.parse('tags://{tag*}').match('tags://a,b,c')).toEqual({ tag: ['a', 'b', 'c'] });
      expect(UriTemplate.parse('files://{/path*}').match('files:///a/b/c')).toEqual({ path: ['a', 'b', 'c'] });
    });
  });

  describe('match on the URIs of issue #26', () => {
    // Before #26 each was a backtracking regex: 21 s for 46 characters of the first, 226 s for
    // 8 000 dashes of the second. The work is counted, not timed.
    const cases: Array<[string, (n: number) => string]> = [
      ['matrix://grid{;x,y}', (n) => `matrix://grid${';'.repeat(n)}`],
      ['log://{day}-{level}-{service}', (n) => `log://${'-'.repeat(n)}`],
      ['file://{name}.{ext}', (n) => `file://${'a.'.repeat(n)}`],
    ];

    function steps(template: UriTemplate, uri: string): number {
      const meter = { steps: 0 };
      template.measuredMatch(uri, meter);
      return meter.steps;
    }

    it.each(cases)('%s: twice the URI, at most twice the work, matching or not', (text, uriOf) => {
      const template = UriTemplate.parse(text);
      for (const end of ['', '/']) {
        const small = steps(template, uriOf(4_000) + end);
        expect(steps(template, uriOf(8_000) + end)).toBeLessThanOrEqual(2 * small + 50);
        expect(small).toBeLessThan(20 * uriOf(4_000).length);
      }
    });

    it('answers as before', () => {
      expect(UriTemplate.parse('matrix://grid{;x,y}').match(`matrix://grid${';'.repeat(32)}/`)).toBeUndefined();
      expect(UriTemplate.parse('matrix://grid{;x,y}').match('matrix://grid;x=1;y=2')).toEqual({ x: '1', y: '2' });
      expect(UriTemplate.parse('log://{day}-{level}-{service}').match(`log://${'-'.repeat(8_000)}/`)).toBeUndefined();
      expect(UriTemplate.parse('log://{day}-{level}-{service}').match('log://2026-07-28-error-billing')).toEqual({
        day: '2026',
        level: '07',
        service: '28-error-billing',
      });
      expect(UriTemplate.parse('file://{name}.{ext}').match(`file://${'a.'.repeat(3)}`)).toEqual({ name: 'a', ext: 'a.a.' });
      expect(UriTemplate.parse('img://{name}{.ext}').match('img://archive.tar.gz')).toEqual({ name: 'archive', ext: 'tar.gz' });
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
