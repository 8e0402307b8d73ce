import { IsInt, IsOptional, IsString } from 'class-validator';
import { Field } from '../decorators/field.decorator';
import { Complete } from '../decorators/complete.decorator';
import { Prompt } from '../decorators/prompt.decorator';
import type { PromptOptions } from '../decorators/decorator-options';
import { HandlerContext } from '../dispatcher/handler-context';
import { DefinitionErrorCode } from '../errors/definition-error';
import { request, startupError } from '../../test/memory-app';
import type { Provider } from '../scanner/scan-providers';
import { defineCompletion } from './define-completion';
import { definePrompt } from './define-prompt';
import { defineResourceTemplate } from './define-resource-template';

class ReviewArgs {
  @Field({ description: 'The code to review' })
  @IsString()
  code: string;

  @IsOptional()
  @IsString()
  language?: string;
}

class CountArgs {
  @IsInt()
  count: number;
}

const LANGUAGES = ['go', 'python', 'typescript'];

// A decorated completer of a defined template: both forms meet in one app.
class StyleguideCompletions {
  @Complete({ resourceTemplate: 'styleguide://{language}', variable: 'language' })
  languages(value: string) {
    return { values: LANGUAGES.filter((name) => name.includes(value)) };
  }
}

const review = (args: ReviewArgs) => `Review this ${args.language ?? 'code'}:\n\n${args.code}`;

describe('definePrompt', () => {
  it('publishes and answers what the same decorated prompt does', async () => {
    const options: PromptOptions = { name: 'review', title: 'Review', description: 'Reviews code', input: ReviewArgs };
    class Decorated {
      @Prompt(options)
      review(args: ReviewArgs) {
        return review(args);
      }
    }
    const defined = definePrompt({ ...options, name: 'review', input: ReviewArgs }, review);
    expect(await request([defined], 'prompts/list')).toEqual(await request([Decorated], 'prompts/list'));
    expect((await request([defined], 'prompts/list')).result).toMatchObject({
      prompts: [
        {
          arguments: [
            { name: 'code', description: 'The code to review', required: true },
            { name: 'language', required: false },
          ],
        },
      ],
    });
    for (const args of [{ code: 'x = 1', language: 'python' }, { language: 'go' }]) {
      expect(await request([defined], 'prompts/get', { name: 'review', arguments: args })).toEqual(
        await request([Decorated], 'prompts/get', { name: 'review', arguments: args }),
      );
    }
    expect((await request([defined], 'prompts/get', { name: 'review', arguments: { language: 'go' } })).error).toMatchObject({ code: -32602 });
  });

  it('takes raw arguments for a prompt without a DTO (a mirrored one): listed as given, required ones checked, strings passed on', async () => {
    const seen: unknown[] = [];
    const defined = definePrompt(
      { name: 'greet', arguments: [{ name: 'who', description: 'Whom to greet', required: true }, { name: 'tone' }] },
      (args) => (seen.push(args), `Greet ${String((args as Record<string, string>).who)}`),
    );
    expect((await request([defined], 'prompts/list')).result).toEqual({
      prompts: [{ name: 'greet', arguments: [{ name: 'who', description: 'Whom to greet', required: true }, { name: 'tone' }] }],
    });
    await request([defined], 'prompts/get', { name: 'greet', arguments: { who: 'Ada', extra: 'dropped' } });
    expect(seen).toEqual([{ who: 'Ada' }]);
    expect((await request([defined], 'prompts/get', { name: 'greet', arguments: { tone: 'warm' } })).error).toMatchObject({ code: -32602 });
  });

  it('hands the handler the DTO instance and the request context; without input, no arguments', async () => {
    const seen: unknown[] = [];
    const defined = definePrompt({ name: 'review', input: ReviewArgs }, (args, ctx) => {
      seen.push(args, ctx);
      return review(args);
    });
    await request([defined], 'prompts/get', { name: 'review', arguments: { code: 'x' } });
    expect(seen[0]).toBeInstanceOf(ReviewArgs);
    expect(seen[1]).toBeInstanceOf(HandlerContext);
    const bare = definePrompt({ name: 'hello' }, () => 'Say hello');
    expect((await request([bare], 'prompts/list')).result).toEqual({ prompts: [{ name: 'hello' }] });
  });

  it('rejects a non-string argument at createApp with the decorator’s error', () => {
    const error = startupError([definePrompt({ name: 'count', input: CountArgs }, () => 'x')]);
    expect(error.code).toBe(DefinitionErrorCode.INVALID_PROMPT_ARGUMENT);
    expect(error.problem).toBe('Prompt argument CountArgs.count of definePrompt("count") is not a string.');
  });

  it('clashes with a decorated prompt of the same name', () => {
    class Decorated {
      @Prompt({ input: null })
      review() {
        return 'x';
      }
    }
    expect(startupError([Decorated, definePrompt({ name: 'review' }, () => 'x')]).code).toBe(DefinitionErrorCode.DUPLICATE_NAME);
  });
});

describe('defineCompletion', () => {
  const complete = (ref: Record<string, unknown>, name: string, value: string, context?: Record<string, string>) =>
    request(providers, 'completion/complete', { ref, argument: { name, value }, ...(context ? { context: { arguments: context } } : {}) });

  const seen: unknown[] = [];
  const providers: Provider[] = [
    definePrompt({ name: 'review', input: ReviewArgs }, review),
    defineCompletion({ prompt: 'review', argument: 'language' }, (value, context, ctx) => {
      seen.push(context, ctx);
      return LANGUAGES.filter((name) => name.startsWith(value));
    }),
    defineResourceTemplate({ uriTemplate: 'styleguide://{language}', name: 'styleguide' }, ({ language }) => `# ${language}`),
    StyleguideCompletions,
  ];

  it('completes a defined prompt’s argument with the other arguments and the context', async () => {
    expect((await complete({ type: 'ref/prompt', name: 'review' }, 'language', 'py', { code: 'x' })).result).toEqual({
      completion: { values: ['python'], total: 1, hasMore: false },
    });
    expect(seen[0]).toEqual({ arguments: { code: 'x' } });
    expect(seen[1]).toBeInstanceOf(HandlerContext);
  });

  it('lets a decorated @Complete complete a defined template', async () => {
    expect((await complete({ type: 'ref/resource', uri: 'styleguide://{language}' }, 'language', 'o')).result).toEqual({
      completion: { values: ['go', 'python'], total: 2, hasMore: false },
    });
  });

  it('rejects what names no prompt argument at createApp with the decorator’s error', () => {
    const error = startupError([
      definePrompt({ name: 'review', input: ReviewArgs }, review),
      defineCompletion({ prompt: 'review', argument: 'tone' }, () => []),
    ]);
    expect(error.code).toBe(DefinitionErrorCode.INVALID_OPTIONS);
    expect(error.problem).toBe('defineCompletion("review/tone") names argument "tone" of prompt "review", which does not exist.');
  });

  it('clashes with a decorated completion of the same argument', () => {
    class Decorated {
      @Complete({ prompt: 'review', argument: 'language' })
      languages() {
        return [];
      }
    }
    const error = startupError([...providers, Decorated]);
    expect(error.code).toBe(DefinitionErrorCode.DUPLICATE_NAME);
    expect(error.problem).toBe('Completion for "prompt:review:language" is declared twice: by defineCompletion("review/language") and by Decorated.languages.');
  });
});
