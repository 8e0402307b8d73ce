import { createApp, text, Tool, type Logger } from '@mcpkit/core';
import { IsArray, IsInt, IsString } from 'class-validator';
import pino from 'pino';
import { firstText, TestClient } from '../src';

// An output class with a field named `content` (a page of lines, as a file server returns) used to
// be taken for a finished CallToolResult, and failed with "(root): must be object".

class Page {
  @IsArray()
  @IsString({ each: true })
  content: string[];

  @IsInt()
  total: number;
}

class Sum {
  @IsInt()
  total: number;
}

class Files {
  @Tool({ output: Page, input: null })
  page(): Page {
    return Object.assign(new Page(), { content: ['line one', 'line two'], total: 2 });
  }

  @Tool({ output: Page, input: null })
  plainPage(): Page {
    return { content: ['only'], total: 1 };
  }

  @Tool({ output: Page, input: null })
  finished() {
    return { content: [text('1 line')], structuredContent: { content: ['only'], total: 1 } };
  }

  @Tool({ output: Sum, input: null })
  blocksOnly() {
    return { content: [text('3')] };
  }
}

function filesApp(lines: Array<Record<string, unknown>> = []) {
  const logger = pino({ level: 'error' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) }) as Logger;
  return createApp({ name: 'files', version: '1', providers: [Files], logger });
}

describe('an output class with a field named content', () => {
  it('is the structured result, whether an instance or a plain object', async () => {
    const client = await TestClient.connect(filesApp());
    expect(await client.callTool('page')).toEqual({
      content: [{ type: 'text', text: '{"content":["line one","line two"],"total":2}' }],
      structuredContent: { content: ['line one', 'line two'], total: 2 },
    });
    expect((await client.callTool('plainPage')).structuredContent).toEqual({ content: ['only'], total: 1 });
  });

  it('still lets the tool return a finished result with its structuredContent', async () => {
    const client = await TestClient.connect(filesApp());
    expect(await client.callTool('finished')).toEqual({ content: [{ type: 'text', text: '1 line' }], structuredContent: { content: ['only'], total: 1 } });
  });
});

describe('a finished result without structuredContent from a tool with an output schema', () => {
  it('is an error whose log line says what to return instead', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const client = await TestClient.connect(filesApp(lines));
    const result = await client.callTool('blocksOnly');
    expect(result.isError).toBe(true);
    expect(firstText(result)).toBe('Tool blocksOnly produced a result that does not match its output schema; details are in the server log.');
    expect(lines).toEqual([
      expect.objectContaining({
        msg: 'tool result does not match its output schema',
        tool: 'blocksOnly',
        problems: [
          expect.stringMatching(/^a result with content but no structuredContent: return the output object itself .* or \{ content, structuredContent \}/),
        ],
      }),
    ]);
  });
});
