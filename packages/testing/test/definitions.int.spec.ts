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
  type RequestContext,
} from '@mcpkit/core';
import { IsBoolean, IsOptional, IsString } from 'class-validator';
import pino from 'pino';
import { firstText, TestClient } from '../src';

// The same surface twice, once with decorators and once with the define* functions (#13): every
// list and every answer must be the same, in both eras.

class NoteInput {
  @Field({ description: 'Note id' })
  @IsString()
  id: string;
}

class Confirm {
  @IsBoolean()
  ok: boolean;
}

class SummaryArgs {
  @IsString()
  id: string;

  @IsOptional()
  @IsString()
  style?: string;
}

const NOTES = new Map([
  ['n1', 'Buy milk'],
  ['n2', 'Call Ada'],
]);
const STYLES = ['brief', 'bullet', 'formal'];

async function remove(input: NoteInput, ctx: RequestContext): Promise<string> {
  const answer = await ctx.elicit(`Delete ${input.id}?`, Confirm);
  return answer.action === 'accept' && answer.content.ok ? `deleted ${input.id}` : 'kept';
}
const read = ({ id }: { id: string }) => NOTES.get(id);
const summary = (args: SummaryArgs) => `Summarise ${NOTES.get(args.id) ?? '?'} (${args.style ?? 'brief'})`;
const styles = (value: string) => STYLES.filter((style) => style.startsWith(value));

class Decorated {
  @Tool({ name: 'delete_note', description: 'Deletes a note', annotations: { destructiveHint: true } })
  remove(input: NoteInput, ctx: RequestContext) {
    return remove(input, ctx);
  }

  @Resource({ uri: 'notes://index', name: 'index', mimeType: 'text/plain' })
  index() {
    return [...NOTES.keys()].join('\n');
  }

  @ResourceTemplate({ uriTemplate: 'notes://{id}', name: 'note', mimeType: 'text/plain' })
  note(variables: { id: string }) {
    return read(variables);
  }

  @Prompt({ name: 'summarise', description: 'Summarises a note' })
  summarise(args: SummaryArgs) {
    return summary(args);
  }

  @Complete({ prompt: 'summarise', argument: 'style' })
  styles(value: string) {
    return styles(value);
  }
}

const defined = [
  defineTool({ name: 'delete_note', description: 'Deletes a note', annotations: { destructiveHint: true }, input: NoteInput }, remove),
  defineResource({ uri: 'notes://index', name: 'index', mimeType: 'text/plain' }, () => [...NOTES.keys()].join('\n')),
  defineResourceTemplate({ uriTemplate: 'notes://{id}', name: 'note', mimeType: 'text/plain' }, read),
  definePrompt({ name: 'summarise', description: 'Summarises a note', input: SummaryArgs }, summary),
  defineCompletion({ prompt: 'summarise', argument: 'style' }, styles),
];

const logger = pino({ level: 'silent' });
const apps = {
  decorated: createApp({ name: 'notes', version: '1', providers: [Decorated], logger }),
  defined: createApp({ name: 'notes', version: '1', providers: defined, logger }),
};

async function observe(era: 'legacy' | 'modern', app: keyof typeof apps): Promise<unknown[]> {
  const client = await TestClient.connect(apps[app], {
    ...(era === 'modern' ? { era: 'modern' as const } : {}),
    handlers: { 'elicitation/create': () => ({ action: 'accept', content: { ok: true } }) },
  });
  return [
    client.server.capabilities,
    await client.listTools(),
    await client.listResources(),
    await client.listResourceTemplates(),
    await client.listPrompts(),
    await client.callTool('delete_note', { id: 'n1' }),
    await client.callTool('delete_note', { id: 7 }),
    await client.readResource('notes://index'),
    await client.readResource('notes://n2'),
    await client.readResource('notes://n9').catch((error: unknown) => error),
    await client.getPrompt('summarise', { id: 'n2', style: 'formal' }),
    await client.getPrompt('summarise', {}).catch((error: unknown) => error),
    await client.complete({ type: 'ref/prompt', name: 'summarise' }, { name: 'style', value: 'b' }),
  ];
}

describe.each(['legacy', 'modern'] as const)('an app of define* definitions (%s era)', (era) => {
  it('lists and answers exactly what the decorated app does', async () => {
    const [fromDecorators, fromDefinitions] = await Promise.all([observe(era, 'decorated'), observe(era, 'defined')]);
    expect(fromDefinitions).toEqual(fromDecorators);
  });

  it('serves every kind: a tool asking the client, a template with its variable, a prompt with arguments and its completion', async () => {
    const client = await TestClient.connect(apps.defined, {
      ...(era === 'modern' ? { era: 'modern' as const } : {}),
      handlers: { 'elicitation/create': () => ({ action: 'accept', content: { ok: true } }) },
    });
    expect(firstText(await client.callTool('delete_note', { id: 'n1' }))).toBe('deleted n1');
    expect(firstText(await client.callTool('delete_note', {}))).toContain('id: is required');
    expect(firstText(await client.readResource('notes://n2'))).toBe('Call Ada');
    expect((await client.getPrompt('summarise', { id: 'n2' })).messages[0].content).toEqual({ type: 'text', text: 'Summarise Call Ada (brief)' });
    expect((await client.complete({ type: 'ref/prompt', name: 'summarise' }, { name: 'style', value: 'b' })).values).toEqual(['brief', 'bullet']);
  });
});
