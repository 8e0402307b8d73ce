import { Type } from 'class-transformer';
import { ArrayMaxSize, IsBoolean, IsEnum, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import pino from 'pino';
import {
  Complete,
  createApp,
  defineCompletion,
  definePrompt,
  defineResource,
  defineResourceTemplate,
  defineTool,
  Field,
  Prompt,
  Resource,
  ResourceTemplate,
  Tool,
  ToolError,
  type McpApp,
  type RequestContext,
} from '@mcpkit/core';

// The names a caller without the admin role may not see. No answer to such a caller may contain
// one, unless the caller wrote it in its own request, and then the answer must equal the answer
// to an unknown name (with the name swapped).
export const HIDDEN = {
  tool: 'zz_secret_tool',
  taskTool: 'zz_secret_task',
  headerTool: 'zz_secret_header',
  prompt: 'zz_secret_prompt',
  resource: 'secret://zz/doc',
  template: 'secret://zz/{id}',
  headerArgument: 'zzSecretRegion',
} as const;

/** Names the hidden ones are compared against: unknown to the app, of the same kind. */
export const UNKNOWN = {
  tool: 'zz_absent_tool',
  taskTool: 'zz_absent_task',
  headerTool: 'zz_absent_header',
  prompt: 'zz_absent_prompt',
  resource: 'absent://zz/doc',
} as const;

enum Colour {
  Red = 'red',
  Green = 'green',
}

class Point {
  @IsInt()
  @Min(-1000)
  @Max(1000)
  x: number;

  @IsInt()
  y: number;
}

class ShapeInput {
  @Field({ description: 'A name' })
  @IsString()
  @MaxLength(64)
  @Matches(/^[a-z][a-z0-9-]*$/)
  name: string;

  @IsEnum(Colour)
  colour: Colour;

  @ValidateNested()
  @Type(() => Point)
  origin: Point;

  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => Point)
  @ArrayMaxSize(16)
  path?: Point[];

  @IsOptional()
  @IsBoolean()
  closed?: boolean;
}

class EchoInput {
  @IsString()
  @MaxLength(4096)
  text: string;
}

class RouteInput {
  @Field({ header: 'Region' })
  @IsString()
  region: string;

  @Field({ header: 'Priority' })
  @IsOptional()
  @IsInt()
  priority?: number;
}

class SecretRouteInput {
  @Field({ header: 'ZzSecretRegion' })
  @IsString()
  zzSecretRegion: string;
}

class TopicArgs {
  @IsString()
  topic: string;
}

class OpenTools {
  @Tool({ description: 'Echoes its text', annotations: { readOnlyHint: true } })
  echo(input: EchoInput): string {
    return input.text;
  }

  @Tool({ description: 'Describes a shape' })
  shape(input: ShapeInput): { name: string; points: number } {
    return { name: input.name, points: 1 + (input.path?.length ?? 0) };
  }

  @Tool({ description: 'Routes on a mirrored header' })
  route(input: RouteInput): string {
    return `${input.region}/${String(input.priority)}`;
  }

  @Tool({ description: 'Runs as a task when asked', task: 'optional' })
  async slow(input: EchoInput, ctx: RequestContext): Promise<string> {
    await ctx.progress(1, 2);
    return input.text;
  }

  @Tool({ description: 'Always fails the way a tool fails' })
  broken(): string {
    throw new ToolError('broken on purpose');
  }

  @Tool({ description: 'Throws an unexpected error' })
  crash(): string {
    throw new Error('internal detail that must not leak');
  }

  @Prompt({ description: 'Talks about a topic' })
  chat(args: TopicArgs): string {
    return `Tell me about ${args.topic}`;
  }

  @Complete({ prompt: 'chat', argument: 'topic' })
  topics(value: string): string[] {
    return ['alpha', 'beta', 'gamma'].filter((topic) => topic.startsWith(value));
  }

  @Resource({ uri: 'open://readme', name: 'readme', mimeType: 'text/plain' })
  readme(): string {
    return 'read me';
  }

  @ResourceTemplate({ uriTemplate: 'open://items/{id}', name: 'item', mimeType: 'text/plain' })
  item({ id }: { id: string }): string | undefined {
    return id.length < 40 ? `item ${id}` : undefined;
  }
}

// Scope rules, one with a scope named like an Object.prototype property.
const scoped = [
  defineTool({ name: 'writer', description: 'Needs the write scope', input: EchoInput, requireScopes: ['write'] }, (input) => input.text),
  defineTool({ name: 'proto_rule', description: 'Needs a scope named constructor', requireScopes: ['constructor'] }, () => 'ok'),
];

// Every kind of item the admin role may see, hidden from everyone else.
const hiddenItems = [
  defineTool({ name: HIDDEN.tool, description: 'Hidden', input: EchoInput, requireRoles: ['admin'] }, (input) => input.text),
  defineTool({ name: HIDDEN.taskTool, description: 'Hidden task', input: EchoInput, task: 'required', requireRoles: ['admin'] }, (input) => input.text),
  defineTool({ name: HIDDEN.headerTool, description: 'Hidden header', input: SecretRouteInput, requireRoles: ['admin'] }, (input) => input.zzSecretRegion),
  definePrompt({ name: HIDDEN.prompt, description: 'Hidden prompt', input: TopicArgs, requireRoles: ['admin'] }, (args) => args.topic),
  defineResource({ uri: HIDDEN.resource, name: 'zz_secret_doc', requireRoles: ['admin'] }, () => 'secret'),
  defineResourceTemplate({ uriTemplate: HIDDEN.template, name: 'zz_secret_entry', requireRoles: ['admin'] }, ({ id }) => `secret ${id}`),
  defineCompletion({ prompt: HIDDEN.prompt, argument: 'topic' }, () => ['zz_secret_completion']),
];

/**
 * The app the fuzzer drives: tools with nested, enum, array and header-mirrored inputs, a task
 * tool, a prompt with a completion, resources, one resource template per generated template, and
 * one hidden item of every kind.
 */
export function fuzzApp(templates: readonly string[] = []): McpApp {
  const generated = templates.map((uriTemplate, index) =>
    defineResourceTemplate({ uriTemplate, name: `generated_${index}` }, (variables) => JSON.stringify(variables)),
  );
  return createApp({
    name: 'fuzz',
    version: '1.0.0',
    providers: [OpenTools, ...scoped, ...hiddenItems, ...generated],
    subscriptions: true,
    clientLogging: true,
    impliedScopes: { write: ['read'] },
    // Errors the fuzzer provokes on purpose are expected: nothing is printed.
    logger: pino({ level: 'silent' }),
  });
}
