import { IsEmail, IsString, IsUUID, Matches } from 'class-validator';
import { Field } from '../decorators/field.decorator';
import { Prompt } from '../decorators/prompt.decorator';
import { Tool } from '../decorators/tool.decorator';
import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import { createApp } from '../server/create-app';
import type { Provider } from '../scanner/scan-providers';

/** What createApp refuses the providers with (it must refuse them). */
function refusal(providers: Provider[]): DefinitionError {
  let refused: unknown;
  expect(() => {
    try {
      createApp({ name: 't', version: '1', providers });
    } catch (error) {
      refused = error;
      throw error;
    }
  }).toThrow(DefinitionError);
  return refused as DefinitionError;
}

describe('patterns that run on client input', () => {
  it('refuses an @Matches whose repetition can read the same text in more than one way, naming the field and the repetition', () => {
    class Input {
      @Matches(/^(\w+\s?)*$/)
      name: string;
    }
    class Tools {
      @Tool()
      greet(input: Input) {
        return input.name;
      }
    }
    const error = refusal([Tools]);
    expect(error.code).toBe(DefinitionErrorCode.UNSAFE_PATTERN);
    expect(error.problem).toBe(
      '@Matches on Input.name has the pattern /^(\\w+\\s?)*$/, whose repetition (\\w+\\s?)* can read the same text in more than one way: ' +
        'a crafted value of a few dozen characters makes it run for seconds or hours, and the server answers nothing else meanwhile.',
    );
    expect(error.fixes.join('\n')).toContain('^[a-z0-9]+(?:-[a-z0-9]+)*$');
  });

  it('refuses counted copies that share one text out in more than 1 000 ways (#26 review, finding 1)', () => {
    class Input {
      @Matches(/^(?:\w{1,10}\s?){1,10}$/)
      words: string;
    }
    class Tools {
      @Tool()
      tag(input: Input) {
        return input.words;
      }
    }
    const error = refusal([Tools]);
    expect(error.code).toBe(DefinitionErrorCode.UNSAFE_PATTERN);
    expect(error.problem).toBe(
      '@Matches on Input.words has the pattern /^(?:\\w{1,10}\\s?){1,10}$/, whose counted repetition (?:\\w{1,10}\\s?){1,10} can share one text out among its copies in more than 1000 ways: ' +
        'a crafted value of a few dozen characters makes it run for seconds or minutes, and the server answers nothing else meanwhile.',
    );
    expect(error.fixes.join('\n')).toContain('^\\w{1,10}(?:\\s\\w{1,10}){0,9}$ rather than ^(?:\\w{1,10}\\s?){1,10}$');
  });

  it('refuses three neighbouring repetitions that share a text (cubic), and says why a missing ^ counts (#26 review, finding 7)', () => {
    class Input {
      @Matches(/^[A-Z0-9]+-?[A-Z0-9]+-?[A-Z0-9]+$/)
      code: string;
    }
    class Tools {
      @Tool()
      find(input: Input) {
        return input.code;
      }
    }
    const error = refusal([Tools]);
    expect(error.code).toBe(DefinitionErrorCode.UNSAFE_PATTERN);
    expect(error.problem).toBe(
      '@Matches on Input.code has the pattern /^[A-Z0-9]+-?[A-Z0-9]+-?[A-Z0-9]+$/, whose repetitions [A-Z0-9]+, [A-Z0-9]+ and [A-Z0-9]+ can share one text out among them: ' +
        'the time to reject a value grows as the cube of its length (n^3), a few thousand characters take seconds, and the server answers nothing else meanwhile.',
    );
    expect(error.fixes.join('\n')).toContain('^[A-Z0-9]+(?:-[A-Z0-9]+){0,2}$ rather than ^[A-Z0-9]+-?[A-Z0-9]+-?[A-Z0-9]+$');
    class Raw {
      @Tool({ inputSchema: { type: 'object', properties: { contact: { type: 'string', pattern: '[^@]+@[^@]+\\.[^@]+$' } } } })
      mail(input: { contact?: string }) {
        return input.contact ?? '';
      }
    }
    expect(refusal([Raw]).problem).toBe(
      'The inputSchema of Raw.mail (at #/properties/contact/pattern) has the pattern /[^@]+@[^@]+\\.[^@]+$/u, which is tried from every position of the value (it does not start with ^, or it is a lookaround past the start), ' +
        'and whose repetitions [^@]+, [^@]+ and [^@]+ can share one text out among them: the time to reject a value grows as the cube of its length (n^3), a few thousand characters take seconds, and the server answers nothing else meanwhile.',
    );
  });

  it('refuses one with flags, which class-validator runs instead of ajv, and one in a prompt', () => {
    class Flagged {
      @Matches('^(?:a|A)+$', 'i')
      code: string;
    }
    class Tools {
      @Tool()
      check(input: Flagged) {
        return input.code;
      }
    }
    expect(refusal([Tools]).problem).toContain('@Matches on Flagged.code has the pattern /^(?:a|A)+$/i, whose repetition (?:a|A)+');
    class Args {
      @IsString()
      @Matches(/^(a+)+$/)
      topic: string;
    }
    class Prompts {
      @Prompt()
      brief(args: Args) {
        return args.topic;
      }
    }
    expect(refusal([Prompts]).code).toBe(DefinitionErrorCode.UNSAFE_PATTERN);
  });

  it('refuses a pattern of a raw inputSchema, of @Field({ schema }) and a patternProperties key, naming where it is', () => {
    class Raw {
      @Tool({ inputSchema: { type: 'object', properties: { q: { type: 'string', pattern: '^(a|a)*$' } } } })
      search(input: { q?: string }) {
        return input.q ?? '';
      }
    }
    expect(refusal([Raw]).problem).toContain('The inputSchema of Raw.search (at #/properties/q/pattern) has the pattern /^(a|a)*$/u');
    class Part {
      @Field({ schema: { type: 'string', pattern: '^(.*,)*x$' } })
      list: string;
    }
    class Parts {
      @Tool()
      take(input: Part) {
        return input.list;
      }
    }
    expect(refusal([Parts]).problem).toContain('The schema of Part (at #/properties/list/pattern) has the pattern /^(.*,)*x$/u');
    class Keys {
      @Tool({ inputSchema: { type: 'object', patternProperties: { '^(x+x+)+y$': { type: 'string' } } } })
      tag(input: Record<string, string>) {
        return Object.keys(input).join();
      }
    }
    expect(refusal([Keys]).problem).toContain('The inputSchema of Keys.tag (a key of #/patternProperties) has the pattern /^(x+x+)+y$/u');
  });

  it('refuses a pattern of a raw outputSchema (what an upstream service answers is checked with it), each time it is given', () => {
    const outputSchema = { type: 'object', properties: { a: { type: 'string', pattern: '^(a+)+$' } } };
    class Proxy {
      @Tool({ outputSchema })
      fetch() {
        return { a: 'a' };
      }
    }
    // The same schema object again: one that was refused once is not remembered as checked.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      expect(refusal([Proxy]).problem).toContain('The outputSchema of Proxy.fetch (at #/properties/a/pattern) has the pattern /^(a+)+$/u');
    }
  });

  it('passes ordinary patterns: emails, slugs, identifiers, and data that merely holds the word "pattern"', () => {
    class Input {
      @Matches(/^[^\s@]+@[^\s@]+\.[^\s@]+$/)
      contact: string;

      @IsEmail()
      email: string;

      @Matches(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)
      slug: string;

      @Matches(/^[a-z0-9-]+$/)
      handle: string;

      @Matches(/^([a-z0-9]+-)*[a-z0-9]+$/i)
      legacySlug: string;

      @IsUUID()
      id: string;

      @Field({ schema: { type: 'string', pattern: '^\\p{L}+(?:[ -]\\p{L}+)*$', examples: [{ pattern: '(a+)+$' }] } })
      name: string;
    }
    class Tools {
      @Tool()
      save(input: Input) {
        return input.slug;
      }

      @Tool({ inputSchema: { type: 'object', properties: { tag: { type: 'string', pattern: '^#[0-9a-f]{6}$', const: { pattern: '(a|a)*' } } } } })
      colour(input: { tag?: string }) {
        return input.tag ?? '';
      }
    }
    expect(() => createApp({ name: 't', version: '1', providers: [Tools] })).not.toThrow();
  });
});
