import { Field, Tool, type RequestContext } from '@mcpkit/core';
import { IsIn, IsInt, IsNumber, IsBoolean, IsOptional, IsString } from 'class-validator';

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

class PromptInput {
  @Field({ description: 'The prompt to send to the LLM' })
  @IsString()
  prompt: string;
}

class MessageInput {
  @Field({ description: 'The message to show the user' })
  @IsString()
  message: string;
}

/** The form `test_elicitation` asks for. */
class UserResponse {
  @Field({ description: "User's response" })
  @IsString()
  response: string;
}

/** SEP-1034: every primitive type with a default. */
class ProfileDefaults {
  @Field({ description: 'User name', default: 'John Doe' })
  @IsOptional()
  @IsString()
  name?: string;

  @Field({ description: 'User age', default: 30 })
  @IsOptional()
  @IsInt()
  age?: number;

  @Field({ description: 'User score', default: 95.5 })
  @IsOptional()
  @IsNumber()
  score?: number;

  @Field({ description: 'User status', default: 'active' })
  @IsOptional()
  @IsIn(['active', 'inactive', 'pending'])
  status?: string;

  @Field({ description: 'Verification status', default: true })
  @IsOptional()
  @IsBoolean()
  verified?: boolean;
}

/** SEP-1330: the five enum shapes; titled options need raw JSON Schema. */
const ENUM_SHAPES = {
  type: 'object',
  properties: {
    untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string',
      description: 'Select one option with titles',
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    legacyEnum: {
      type: 'string',
      description: 'Select one option (legacy)',
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    },
    untitledMulti: {
      type: 'array',
      description: 'Select multiple options',
      minItems: 1,
      maxItems: 3,
      items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    },
    titledMulti: {
      type: 'array',
      description: 'Select multiple options with titles',
      minItems: 1,
      maxItems: 3,
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  },
  required: [],
};

/** The conformance tools that talk back to the client: logging, sampling, elicitation. */
export class ClientFacingTools {
  @Tool({ name: 'test_tool_with_logging', description: 'Tests tool that emits log messages during execution', input: null })
  async withLogging(_input: unknown, ctx: RequestContext): Promise<string> {
    ctx.log.info('Tool execution started');
    await sleep(50);
    ctx.log.info('Tool processing data');
    await sleep(50);
    ctx.log.info('Tool execution completed');
    return 'Tool with logging executed successfully';
  }

  @Tool({ name: 'test_sampling', description: 'Tests server-initiated sampling (LLM completion request)' })
  async sampling(input: PromptInput, ctx: RequestContext): Promise<string> {
    const result = await ctx.sample(input.prompt, { maxTokens: 100 });
    const content = Array.isArray(result.content) ? result.content[0] : result.content;
    return `LLM response: ${content && content.type === 'text' ? content.text : 'No response'}`;
  }

  @Tool({ name: 'test_elicitation', description: 'Tests server-initiated elicitation (user input request)' })
  async elicitation(input: MessageInput, ctx: RequestContext): Promise<string> {
    const answer = await ctx.elicit(input.message, UserResponse);
    return `User response: action=${answer.action}, content=${JSON.stringify(answer.action === 'accept' ? answer.content : {})}`;
  }

  @Tool({ name: 'list_roots', description: "Lists the client's roots (roots/list)", annotations: { readOnlyHint: true }, input: null })
  async listRoots(_input: unknown, ctx: RequestContext): Promise<string> {
    const roots = await ctx.roots();
    return roots.length === 0 ? 'No roots' : roots.map((root) => `${root.name ?? '-'} ${root.uri}`).join('\n');
  }

  @Tool({ name: 'test_url_elicitation', description: 'Sends the user to a URL (URL-mode elicitation) and reports completion', input: null })
  async urlElicitation(_input: unknown, ctx: RequestContext): Promise<string> {
    const answer = await ctx.elicitUrl('Authorize the demo service', 'https://example.com/authorize');
    if (answer.action === 'accept') ctx.completeElicitation(answer.elicitationId);
    return `URL elicitation: action=${answer.action}`;
  }

  @Tool({ name: 'test_missing_capability', description: 'Needs the sampling capability: without it a 2026-07-28 request gets -32021', input: null })
  async missingCapability(_input: unknown, ctx: RequestContext): Promise<string> {
    const result = await ctx.sample('Say hi', { maxTokens: 10 });
    return `sampled with ${result.model}`;
  }

  @Tool({ name: 'test_logging_tool', description: 'Logs at info; nothing reaches a client that did not ask for logs', input: null })
  loggingTool(_input: unknown, ctx: RequestContext): string {
    ctx.log.info('a log line for clients that asked');
    return 'logged';
  }

  @Tool({ name: 'test_streaming_elicitation', description: 'Streams progress on its response stream, never a request', input: null })
  async streaming(_input: unknown, ctx: RequestContext): Promise<string> {
    for (let step = 1; step <= 3; step++) {
      ctx.progress(step, 3, `step ${step}`);
      await sleep(10);
    }
    return 'streamed without server-to-client requests';
  }

  @Tool({ name: 'ping_client', description: 'Pings the client and reports the round trip', input: null })
  async pingClient(_input: unknown, ctx: RequestContext): Promise<string> {
    const started = Date.now();
    await ctx.ping();
    return `pong after ${Date.now() - started} ms`;
  }

  @Tool({ name: 'test_elicitation_sep1034_defaults', description: 'Tests elicitation with default values per SEP-1034', input: null })
  async defaults(_input: unknown, ctx: RequestContext): Promise<string> {
    const answer = await ctx.elicit('Please review and update the form fields with defaults', ProfileDefaults);
    return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.action === 'accept' ? answer.content : {})}`;
  }

  @Tool({ name: 'test_elicitation_sep1330_enums', description: 'Tests elicitation with enum schema improvements per SEP-1330', input: null })
  async enums(_input: unknown, ctx: RequestContext): Promise<string> {
    const answer = await ctx.elicit('Please select options from the enum fields', ENUM_SHAPES);
    return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.action === 'accept' ? answer.content : {})}`;
  }
}
