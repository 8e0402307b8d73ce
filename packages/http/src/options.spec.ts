import 'reflect-metadata';
import { createApp, type Logger } from '@mcpkit/core';
import { resetOptionWarnings, ruleEntries, wrongValue } from '@mcpkit/core/transport';
import { HTTP_OPTIONS, resolveOptions, type McpHttpOptions } from './options';
import { MemoryEventStore } from './event-store';
import { LOOPBACK_HOSTS } from './host-origin';

function appWithWarnings() {
  const warnings: string[] = [];
  const quiet = () => undefined;
  const logger = {
    level: 'info',
    trace: quiet,
    debug: quiet,
    info: quiet,
    error: quiet,
    fatal: quiet,
    warn: (message: string) => warnings.push(message),
  } as unknown as Logger & Record<string, unknown>;
  logger.child = () => logger;
  const app = createApp({ name: 'opts', version: '1.0.0', providers: [], logger });
  return { app, warnings };
}

const { app } = appWithWarnings();
const rules = ruleEntries(HTTP_OPTIONS).filter(([name]) => name !== 'app');

const durations = rules.filter(([, rule]) => 'unit' in rule && rule.unit === 'ms');

describe('HTTP endpoint options (HTTP_OPTIONS)', () => {
  beforeEach(() => resetOptionWarnings());

  it('bounds every duration by what a Node timer holds (2^31 − 1 ms)', () => {
    expect(durations.map(([name]) => name)).toEqual(['drainTimeoutMs', 'detachedRequestTimeoutMs', 'sessionIdleTimeoutMs', 'retryMs', 'streamKeepAliveMs']);
  });

  it.each(durations)('refuses %s over 2^31 − 1 ms, naming it', (name) => {
    expect(() => resolveOptions({ app, [name]: 3e9 } as McpHttpOptions)).toThrow(
      `mcpkit HTTP: option "${name}" must be ≤ 2147483647 ms (about 24.8 days) (got 3000000000).`,
    );
  });

  it.each(rules)('refuses a wrong %s with a TypeError naming it', (name, rule) => {
    expect(() => resolveOptions({ app, [name]: wrongValue(rule) } as McpHttpOptions)).toThrow(
      new RegExp(`^mcpkit HTTP: option "${name}" must be .+ \\(got .+\\)\\. Give `),
    );
    expect(() => resolveOptions({ app, [name]: wrongValue(rule) } as McpHttpOptions)).toThrow(TypeError);
  });

  it('names the option and the value', () => {
    expect(() => resolveOptions({ app, maxListens: 0 })).toThrow(
      'mcpkit HTTP: option "maxListens" must be an integer ≥ 1 (got 0). Give an integer ≥ 1, or leave "maxListens" out for the default (1000).',
    );
    expect(() => resolveOptions({ app, responseMode: 'xml' as never })).toThrow('option "responseMode" must be one of "auto", "json", "sse" (got "xml")');
  });

  it('requires the app made by createApp', () => {
    expect(() => resolveOptions({} as McpHttpOptions)).toThrow('mcpkit HTTP: option "app" is required: the app made by createApp');
    expect(() => resolveOptions({ app: {} } as McpHttpOptions)).toThrow('option "app" must be the app made by createApp (got an object)');
  });

  it.each([
    [{ path: 'mcp' }, 'path', '"mcp"'],
    [{ path: '/mcp?x=1' }, 'path', '"/mcp?x=1"'],
    [{ legacySse: { ssePath: 'sse' } }, 'legacySse.ssePath', '"sse"'],
    [{ legacySse: { messagesPath: '/messages#m' } }, 'legacySse.messagesPath', '"/messages#m"'],
  ])('refuses a path not starting with "/": %j', (given, name, shownValue) => {
    expect(() => resolveOptions({ app, ...given } as McpHttpOptions)).toThrow(
      `mcpkit HTTP: option "${name}" must be a path starting with "/" (no "?", "#" or spaces) (got ${shownValue}).`,
    );
  });

  it.each([
    [
      { auth: { resource: 'https://x/mcp', authorizationServers: ['https://as'], verifier: { verify: async () => undefined }, anonymus: 'allow' } },
      'auth.anonymus',
      'auth.anonymous',
    ],
    [{ rateLimit: { limit: 1, windowMs: 1000, stor: {} } }, 'rateLimit.stor', 'rateLimit.store'],
    [{ serverCard: { ulr: 'https://x' } }, 'serverCard.ulr', 'serverCard.url'],
  ])('refuses a typo in a nested option: %j', (given, typo, meant) => {
    expect(() => resolveOptions({ app, ...given } as McpHttpOptions)).toThrow(`mcpkit HTTP: option "${typo}" is unknown; did you mean "${meant}"?`);
  });

  it('checks the types of the nested options it knows', () => {
    expect(() => resolveOptions({ app, serverCard: { url: 5 } } as never)).toThrow('option "serverCard.url" must be a non-empty string (got 5)');
    expect(() => resolveOptions({ app, auth: { anonymous: 'maybe' } } as never)).toThrow(
      'option "auth.anonymous" must be one of "deny", "allow" (got "maybe")',
    );
  });

  it('requires every method of a SessionRouter of the router', () => {
    const router = { instanceId: 'a', start: () => undefined, send: async () => undefined };
    expect(() => resolveOptions({ app, router } as never)).toThrow(
      'option "router" must be an object with start(), send(), created(), attach(), forward(), subscribe(), subscribed(), deleteSession() and close() (got an object)',
    );
  });

  it('reads own properties only: a polluted Object.prototype.allowedHosts does not turn off the Host check', () => {
    (Object.prototype as Record<string, unknown>).allowedHosts = ['*'];
    try {
      expect(resolveOptions({ app }).allowedHosts).toEqual(LOOPBACK_HOSTS);
    } finally {
      delete (Object.prototype as Record<string, unknown>).allowedHosts;
    }
  });

  it('refuses an unknown option, suggesting a close one', () => {
    expect(() => resolveOptions({ app, maxSesions: 3 } as McpHttpOptions)).toThrow('option "maxSesions" is unknown; did you mean "maxSessions"?');
    expect(() => resolveOptions({ app, legacySse: { ssePaht: '/s' } } as McpHttpOptions)).toThrow(
      'option "legacySse.ssePaht" is unknown; did you mean "legacySse.ssePath"?',
    );
    expect(() => resolveOptions({ app, colour: 'red' } as McpHttpOptions)).toThrow(
      /option "colour" is unknown\. Remove it: the options of mcpkit HTTP are app, path,/,
    );
  });

  it.each([
    [
      'bodyLimit',
      'maxMessageBytes',
      1024,
      (options: ReturnType<typeof resolveOptions>) => [options.maxMessageBytes, options.bodyLimit, options.limits.maxBatchBytes],
    ],
    ['maxResponseSize', 'maxResponseBytes', 2048, (options: ReturnType<typeof resolveOptions>) => [options.limits.maxMessageBytes]],
    ['maxBatchResponseSize', 'maxBatchResponseBytes', 4096, (options: ReturnType<typeof resolveOptions>) => [options.limits.maxBatchBytes]],
    ['keepAliveMs', 'streamKeepAliveMs', 500, (options: ReturnType<typeof resolveOptions>) => [options.streamKeepAliveMs, options.keepAliveMs]],
  ] as const)('takes the deprecated %s for %s, warning once on the app logger', (oldName, newName, value, read) => {
    const { app: warned, warnings } = appWithWarnings();
    const resolved = resolveOptions({ app: warned, [oldName]: value });
    for (const seen of read(resolved)) expect(seen).toBe(value);
    resolveOptions({ app: warned, [oldName]: value });
    expect(warnings).toEqual([`mcpkit HTTP: option "${oldName}" is deprecated and will be removed in the next release; use "${newName}"`]);
    expect(() => resolveOptions({ app: warned, [oldName]: value, [newName]: value })).toThrow(
      `mcpkit HTTP: options "${oldName}" and "${newName}" are both given: "${oldName}" is the deprecated name of "${newName}". Give only "${newName}".`,
    );
  });

  it('keeps the defaults of before', () => {
    const resolved = resolveOptions({ app });
    expect(resolved).toMatchObject({
      path: '/mcp',
      sessions: true,
      responseMode: 'auto',
      allowedHosts: LOOPBACK_HOSTS,
      allowedOrigins: [],
      maxMessageBytes: 4 * 1024 * 1024,
      bodyLimit: 4 * 1024 * 1024,
      maxDrainBytes: 64 * 1024 * 1024,
      drainTimeoutMs: 10_000,
      maxSessions: 10_000,
      maxListens: 1_000,
      detachedRequestTimeoutMs: 300_000,
      maxDetachedRequests: 1_000,
      sessionIdleTimeoutMs: 1_800_000,
      maxEventBytesPerSession: 4 * 1024 * 1024,
      limits: { maxMessageBytes: 64 * 1024 * 1024, maxBatchBytes: 4 * 1024 * 1024 },
      retryMs: 1_000,
      streamKeepAliveMs: 25_000,
      standaloneStream: true,
      httpSse: undefined,
      serverCard: undefined,
    });
    expect(resolved.eventStore).toBeInstanceOf(MemoryEventStore);
    expect(resolveOptions({ app, legacySse: true }).httpSse).toEqual({ ssePath: '/sse', messagesPath: '/messages' });
    expect(resolveOptions({ app, legacySse: { ssePath: '/old' } }).httpSse).toEqual({ ssePath: '/old', messagesPath: '/messages' });
  });
});
