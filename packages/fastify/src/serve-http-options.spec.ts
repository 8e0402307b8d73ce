import pino from 'pino';
import { createApp } from '@mcpkit/core';
import { resetOptionWarnings, ruleEntries, wrongValue } from '@mcpkit/core/transport';
import { serveHttp, SERVE_HTTP_OPTIONS, type ServeHttpOptions } from './serve-http';

function appWithWarnings() {
  const warnings: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push((JSON.parse(line) as { msg: string }).msg) });
  return { app: createApp({ name: 'opts', version: '1.0.0', providers: [], logger }), warnings };
}

const { app } = appWithWarnings();
const rules = ruleEntries(SERVE_HTTP_OPTIONS);

const durations = rules.filter(([, rule]) => 'unit' in rule && rule.unit === 'ms');

describe("serveHttp options (SERVE_HTTP_OPTIONS: its own and the endpoint's)", () => {
  beforeEach(() => resetOptionWarnings());

  it('bounds every duration by what a Node timer holds (2^31 − 1 ms)', () => {
    expect(durations.map(([name]) => name)).toEqual([
      'receiveTimeoutMs',
      'connectionTimeoutMs',
      'keepAliveTimeoutMs',
      'drainTimeoutMs',
      'detachedRequestTimeoutMs',
      'sessionIdleTimeoutMs',
      'retryMs',
      'streamKeepAliveMs',
    ]);
  });

  it.each(durations)('refuses %s over 2^31 − 1 ms, naming it', async (name) => {
    await expect(serveHttp(app, { port: 0, [name]: 3e9 } as ServeHttpOptions)).rejects.toThrow(
      `serveHttp: option "${name}" must be ≤ 2147483647 ms (about 24.8 days) (got 3000000000).`,
    );
  });

  it.each(rules)('refuses a wrong %s with a TypeError naming it, before listening', async (name, rule) => {
    const given = { port: 0, [name]: wrongValue(rule) } as ServeHttpOptions;
    await expect(serveHttp(app, given)).rejects.toThrow(new RegExp(`^serveHttp: option "${name}" must be .+ \\(got .+\\)\\. Give `));
  });

  it.each([undefined, {}, { logger: {} }])('refuses a first argument that is not an app (%j), not blaming an option', async (notAnApp) => {
    await expect(serveHttp(notAnApp as never, { port: 0 })).rejects.toThrow(
      /^serveHttp: the first argument must be the app made by createApp \(got (undefined|an object)\)\. Call serveHttp\(createApp/,
    );
  });

  it("refuses an unknown option, suggesting a close one among its own and the endpoint's", async () => {
    await expect(serveHttp(app, { port: 0, keepAliveTimeoutMS: 5 } as ServeHttpOptions)).rejects.toThrow(
      'serveHttp: option "keepAliveTimeoutMS" is unknown; did you mean "keepAliveTimeoutMs"?',
    );
    await expect(serveHttp(app, { port: 0, maxSesions: 5 } as ServeHttpOptions)).rejects.toThrow('did you mean "maxSessions"?');
    await expect(serveHttp(app, { port: 0, app } as ServeHttpOptions)).rejects.toThrow('serveHttp: option "app" is unknown');
  });

  it('refuses a connection timeout at or under the stream keep-alive, naming both', async () => {
    await expect(serveHttp(app, { port: 0, connectionTimeoutMs: 1_000, streamKeepAliveMs: 1_000 })).rejects.toThrow(
      'serveHttp: connectionTimeoutMs (1000 ms) must exceed streamKeepAliveMs (1000 ms)',
    );
  });

  it.each([
    ['requestTimeout', 'receiveTimeoutMs', 20_000, 'requestTimeout'],
    ['connectionTimeout', 'connectionTimeoutMs', 500_000, 'connectionTimeout'],
    ['keepAliveTimeout', 'keepAliveTimeoutMs', 50_000, 'keepAliveTimeout'],
    ['bodyLimit', 'maxMessageBytes', 2048, 'bodyLimit'],
  ] as const)('takes the deprecated %s for %s (Fastify gets it), warning once; both together fail', async (oldName, newName, value, fastifyName) => {
    const { app: warned, warnings } = appWithWarnings();
    for (let i = 0; i < 2; i++) {
      const server = await serveHttp(warned, { port: 0, [oldName]: value });
      try {
        expect((server.fastify.initialConfig as Record<string, unknown>)[fastifyName]).toBe(value);
      } finally {
        await server.close();
      }
    }
    expect(warnings).toEqual([`serveHttp: option "${oldName}" is deprecated and will be removed in the next release; use "${newName}"`]);
    await expect(serveHttp(warned, { port: 0, [oldName]: value, [newName]: value })).rejects.toThrow(
      `serveHttp: options "${oldName}" and "${newName}" are both given`,
    );
  });

  it('documents the defaults of before', () => {
    expect(SERVE_HTTP_OPTIONS).toMatchObject({
      host: { default: '127.0.0.1' },
      port: { default: 3000 },
      requestLogging: { default: false },
      receiveTimeoutMs: { default: 30_000 },
      connectionTimeoutMs: { default: 600_000 },
      keepAliveTimeoutMs: { default: 72_000 },
      maxConnections: { default: 10_000 },
      maxMessageBytes: { default: 4 * 1024 * 1024 },
      streamKeepAliveMs: { default: 25_000 },
    });
  });
});
