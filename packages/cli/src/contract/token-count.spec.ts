import { tmpdir } from 'node:os';
import { Tiktoken } from 'js-tiktoken/lite';
import { createApp, type McpApp } from '@mcpkit/core';
import { TestClient } from '@mcpkit/testing';
import { createNotesApp } from '../../../../apps/notes/src/app';
import { NoteStore } from '../../../../apps/notes/src/note-store';
import { SqliteTaskStore } from '../../../../apps/notes/src/sqlite-task-store';
import { createTestbedApp } from '../../../../apps/testbed/src/app';
import { LimitedTools } from '../../../../apps/testbed/src/limited';
import { ShapesTools } from '../../../../apps/testbed/src/shapes';
import { syntheticTools } from '../../../../apps/testbed/src/synthetic.tools';
import { TestbedTools } from '../../../../apps/testbed/src/testbed.tools';
import { buildManifest } from './manifest';
import { tokenCounter, tokenReport, type TokenizerName } from './token-count';

/** An outside counter: js-tiktoken, another implementation of the same encodings, with its own bundled ranks. */
function outsideCounter(name: TokenizerName): (text: string) => number {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const ranks = (name === 'o200k_base' ? require('js-tiktoken/ranks/o200k_base') : require('js-tiktoken/ranks/cl100k_base')) as ConstructorParameters<
    typeof Tiktoken
  >[0];
  /* eslint-enable @typescript-eslint/no-require-imports */
  const encoding = new Tiktoken(ranks);
  return (text) => encoding.encode(text, [], []).length;
}

/**
 * The tools/list result the app sends (one page here), as its JSON text, to a client with MCP
 * Apps: the whole surface, as the manifest has it (one without gets no view tools).
 */
async function wireToolsList(app: McpApp): Promise<string> {
  const client = await TestClient.connect(app, {
    capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } },
  });
  const result = await client.request<{ tools: unknown[]; nextCursor?: string }>('tools/list');
  expect(result.nextCursor).toBeUndefined();
  return JSON.stringify({ tools: result.tools });
}

function within(ours: number, theirs: number, share: number): void {
  expect({ ours, theirs, apart: Math.abs(ours - theirs) / theirs <= share }).toEqual({ ours, theirs, apart: true });
}

describe('token counts', () => {
  it.each<[string, TokenizerName, () => McpApp]>([
    ['the testbed with 507 tools', 'o200k_base', () => createTestbedApp({ TOOLS: '500' })],
    ['notes', 'cl100k_base', () => createNotesApp(new NoteStore(':memory:'), new SqliteTaskStore(':memory:'), tmpdir())],
  ])('agree within 1 %% with js-tiktoken run on the tools/list JSON %s sends (%s)', async (_, tokenizer, make) => {
    const app = make();
    const report = tokenReport(buildManifest(app), tokenCounter(tokenizer), tokenizer);
    const wire = await wireToolsList(app);
    const outside = outsideCounter(tokenizer)(wire);
    for (const era of report.eras) within(era.toolsList, outside, 0.01);
    // The per-tool costs add up to the whole list within 1 % too (the commas between entries merge into their braces).
    const perTool = report.tools.reduce((sum, tool) => sum + tool.total, 0);
    within(perTool, report.eras[0].toolsList, 0.01);
    for (const tool of report.tools) expect(tool.description + tool.inputSchema + tool.outputSchema).toBeLessThanOrEqual(tool.total);
  });

  it("give core's tokenBudget, counted with the CLI's counter, what mcpkit lint counts (within 1 %)", () => {
    const count = tokenCounter();
    let counted = 0;
    const budget = { limit: 1_000_000, count: (text: string) => (counted += count(text)) };
    const app = createApp({
      name: 'mcpkit-testbed',
      version: '0.1.0',
      providers: [TestbedTools, ShapesTools, LimitedTools, syntheticTools(500)],
      tokenBudget: budget,
    });
    within(counted, tokenReport(buildManifest(app), count, 'o200k_base').total, 0.01);
  });

  it('counts a special-token string in a description as text', () => {
    const count = tokenCounter();
    expect(count('a <|endoftext|> b')).toBeGreaterThan(3);
  });
});
