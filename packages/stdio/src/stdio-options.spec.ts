import { PassThrough } from 'node:stream';
import { createApp, type Logger } from '@mcpkit/core';
import { resetOptionWarnings, ruleEntries, wrongValue } from '@mcpkit/core/transport';
import { serveStdio, STDIO_OPTIONS, type StdioOptions } from './serve-stdio';

function appWithWarnings() {
  const warnings: string[] = [];
  const quiet = () => undefined;
  const logger = {
    level: 'silent',
    trace: quiet,
    debug: quiet,
    info: quiet,
    error: quiet,
    fatal: quiet,
    warn: (message: string) => warnings.push(message),
  } as unknown as Logger & Record<string, unknown>;
  logger.child = () => logger;
  return { app: createApp({ name: 'opts', version: '1.0.0', providers: [], logger }), warnings };
}

const { app } = appWithWarnings();
const streams = () => ({ stdin: new PassThrough(), stdout: new PassThrough(), exitProcess: false });
const rules = ruleEntries(STDIO_OPTIONS);

const durations = rules.filter(([, rule]) => 'unit' in rule && rule.unit === 'ms');

describe('serveStdio options (STDIO_OPTIONS)', () => {
  beforeEach(() => resetOptionWarnings());

  it('bounds every duration by what a Node timer holds (2^31 − 1 ms)', () => {
    expect(durations.map(([name]) => name)).toEqual(['shutdownGraceMs']);
  });

  it.each(durations)('refuses %s over 2^31 − 1 ms, naming it', (name) => {
    expect(() => serveStdio(app, { ...streams(), [name]: 3e9 } as StdioOptions)).toThrow(
      `serveStdio: option "${name}" must be ≤ 2147483647 ms (about 24.8 days) (got 3000000000).`,
    );
  });

  it.each(rules)('refuses a wrong %s with a TypeError naming it, before touching a stream', (name, rule) => {
    const given = { ...streams(), [name]: wrongValue(rule) } as StdioOptions;
    expect(() => serveStdio(app, given)).toThrow(new RegExp(`^serveStdio: option "${name}" must be .+ \\(got .+\\)\\. Give `));
    expect(() => serveStdio(app, given)).toThrow(TypeError);
  });

  it.each([undefined, {}, { logger: {} }])('refuses a first argument that is not an app (%j) before reading the options', (notAnApp) => {
    expect(() => serveStdio(notAnApp as never, streams())).toThrow(
      /^serveStdio: the first argument must be the app made by createApp \(got (undefined|an object)\)\. Call serveStdio\(createApp/,
    );
    expect(() => serveStdio(notAnApp as never, streams())).toThrow(TypeError);
  });

  it('refuses an unknown option, suggesting a close one', () => {
    expect(() => serveStdio(app, { ...streams(), maxMessageByte: 10 } as StdioOptions)).toThrow(
      'serveStdio: option "maxMessageByte" is unknown; did you mean "maxMessageBytes"?',
    );
  });

  it.each([
    ['maxMessageSize', 'maxMessageBytes'],
    ['maxResponseSize', 'maxResponseBytes'],
    ['maxBatchResponseSize', 'maxBatchResponseBytes'],
  ])('takes the deprecated %s for %s, warning once on the app logger; both together fail', async (oldName, newName) => {
    const { app: warned, warnings } = appWithWarnings();
    for (let i = 0; i < 2; i++) await serveStdio(warned, { ...streams(), [oldName]: 4096 }).close();
    expect(warnings).toEqual([`serveStdio: option "${oldName}" is deprecated and will be removed in the next release; use "${newName}"`]);
    expect(() => serveStdio(warned, { ...streams(), [oldName]: 4096, [newName]: 4096 })).toThrow(
      `serveStdio: options "${oldName}" and "${newName}" are both given: "${oldName}" is the deprecated name of "${newName}". Give only "${newName}".`,
    );
  });

  it('documents the defaults of before', () => {
    expect(STDIO_OPTIONS.maxMessageBytes.default).toBe(64 * 1024 * 1024);
    expect(STDIO_OPTIONS.maxResponseBytes.default).toBe(64 * 1024 * 1024);
    expect(STDIO_OPTIONS.shutdownGraceMs.default).toBe(2_000);
  });
});
