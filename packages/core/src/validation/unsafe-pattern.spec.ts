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
