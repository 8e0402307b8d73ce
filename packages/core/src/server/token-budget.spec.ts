import pino from 'pino';
import { Writable } from 'node:stream';
import { defineTool } from '../define/define-tool';
import { createApp } from './create-app';
import type { AppOptions } from '../app/app-options';

/** A logger whose lines are kept, parsed. */
function captured(): { logger: pino.Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

const tools = [defineTool({ name: 'echo', description: 'Says the text back' }, () => 'ok')];
const instructions = 'Use echo.';
/** What the default estimate counts for the app above: its tools/list JSON and instructions, 4 characters a token. */
const estimated =
  Math.ceil(JSON.stringify({ tools: [{ name: 'echo', description: 'Says the text back', inputSchema: { type: 'object', properties: {} } }] }).length / 4) +
  Math.ceil(instructions.length / 4);

function app(tokenBudget: AppOptions['tokenBudget'], logger = captured().logger) {
  return createApp({ name: 'budget', version: '1.0.0', instructions, providers: tools, logger, tokenBudget });
}

describe('createApp({ tokenBudget })', () => {
  it('logs one warning at start-up when the estimate is over the limit, and none within it', () => {
    const over = captured();
    app(estimated - 1, over.logger);
    expect(over.lines).toEqual([
      expect.objectContaining({
        level: 40,
        tokens: estimated,
        tokenBudget: estimated - 1,
        estimated: true,
        tools: 1,
        msg: `tools/list and the instructions cost ${estimated} tokens (estimated: 4 characters a token), over tokenBudget ${estimated - 1}. Shorten descriptions and schemas or remove tools: \`mcpkit lint\` counts each tool exactly.`,
      }),
    ]);
    const within = captured();
    app(estimated, within.logger);
    expect(within.lines).toEqual([]);
  });

  it('counts with the given counter, on the tools/list JSON and the instructions', () => {
    const texts: string[] = [];
    const { logger, lines } = captured();
    app({ limit: 1, count: (text) => (texts.push(text), 7) }, logger);
    expect(texts).toEqual([
      JSON.stringify({ tools: [{ name: 'echo', description: 'Says the text back', inputSchema: { type: 'object', properties: {} } }] }),
      instructions,
    ]);
    expect(lines).toEqual([expect.objectContaining({ tokens: 14, estimated: false })]);
  });

  it('refuses to start over the limit with strict', () => {
    expect(() => app({ limit: 1, strict: true })).toThrow(
      /^MCPKIT_ERR_TOKEN_BUDGET: tools\/list and the instructions cost \d+ tokens \(estimated: 4 characters a token\), over tokenBudget 1\./,
    );
    expect(() => app({ limit: estimated, strict: true })).not.toThrow();
  });

  it.each([0, -5, 1.5, Number.NaN, { limit: 'many' }, { limit: 10, count: 'tiktoken' }])('refuses the option %p', (given) => {
    expect(() => app(given as AppOptions['tokenBudget'])).toThrow(/^MCPKIT_ERR_INVALID_OPTIONS: createApp: option "tokenBudget(\.limit|\.count)?" must be/);
  });
});
