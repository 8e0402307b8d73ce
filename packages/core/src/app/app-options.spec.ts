import 'reflect-metadata';
import { createApp } from '../server/create-app';
import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import { readOptions, wrongValue, type OptionRule } from '../validation/option-table';
import { APP_OPTIONS, type AppOptions } from './app-options';

const base: AppOptions = { name: 'opts', version: '1.0.0', providers: [] };

function thrown(options: unknown): DefinitionError {
  try {
    createApp(options as AppOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return error as DefinitionError;
  }
  throw new Error('createApp did not throw');
}

const rules = Object.entries(APP_OPTIONS) as Array<[string, OptionRule]>;

describe('createApp options (APP_OPTIONS)', () => {
  it.each(rules)('refuses a wrong %s, naming it', (name, rule) => {
    const error = thrown({ ...base, [name]: wrongValue(rule) });
    expect(error.code).toBe(DefinitionErrorCode.INVALID_OPTIONS);
    expect(error.problem).toMatch(new RegExp(`^createApp: option "${name}" must be .+ \\(got .+\\)$`));
    expect(error.fixes).toHaveLength(1);
  });

  it.each(['requestTimeoutMs', 'toolTimeoutMs', 'tasks.defaultTtlMs', 'tasks.maxTtlMs', 'tasks.pollIntervalMs'])(
    'refuses %s over 2^31 − 1 ms (a Node timer would fire at once)',
    (path) => {
      const [outer, inner] = path.split('.');
      const given = inner === undefined ? { [outer]: 3e9 } : { [outer]: { [inner]: 3e9 } };
      expect(thrown({ ...base, ...given }).problem).toBe(`createApp: option "${path}" must be ≤ 2147483647 ms (about 24.8 days) (got 3000000000)`);
      const atMost = inner === undefined ? { [outer]: 2_147_483_647 } : { [outer]: { maxTtlMs: 2_147_483_647, [inner]: 2_147_483_647 } };
      expect(() => createApp({ ...base, ...atMost })).not.toThrow();
    },
  );

  it('refuses tasks.defaultTtlMs over tasks.maxTtlMs, naming both; a default default is cut to maxTtlMs', () => {
    const error = thrown({ ...base, tasks: { defaultTtlMs: 10_000, maxTtlMs: 5_000 } });
    expect(error.problem).toBe('createApp: option "tasks.defaultTtlMs" (10000 ms) must not exceed "tasks.maxTtlMs" (5000 ms)');
    expect(error.fixes).toEqual(['Lower "tasks.defaultTtlMs" to at most "tasks.maxTtlMs", or raise "tasks.maxTtlMs".']);
    expect(() => createApp({ ...base, tasks: { defaultTtlMs: 5_000, maxTtlMs: 5_000 } })).not.toThrow();
    expect(() => createApp({ ...base, tasks: { maxTtlMs: 5_000 } })).not.toThrow();
  });

  it('says what was wrong and what to give', () => {
    const error = thrown({ ...base, maxRequestsInFlight: -3 });
    expect(error.problem).toBe('createApp: option "maxRequestsInFlight" must be an integer ≥ 1 (got -3)');
    expect(error.fixes).toEqual(['Give an integer ≥ 1, or leave "maxRequestsInFlight" out for the default (1000).']);
  });

  it.each([
    [{ tasks: { maxTtlMs: 0 } }, 'option "tasks.maxTtlMs" must be an integer from 1 to 2147483647 (got 0)'],
    [{ tasks: { ttl: 5 } }, 'option "tasks.ttl" is unknown'],
    [{ cache: { tools: {} } }, 'option "cache.tools" is unknown'],
    [{ cache: { reads: { scope: 'everyone' } } }, 'option "cache.reads.scope" must be one of "public", "private" (got "everyone")'],
    [{ rateLimit: { limit: 0, windowMs: 1000 } }, 'option "rateLimit.limit" must be an integer ≥ 1 (got 0)'],
    [{ rateLimit: { limit: 1 } }, 'option "rateLimit.windowMs" is required'],
    [{ clientLogging: { defaultLevel: 'loud' } }, 'option "clientLogging.defaultLevel" must be one of "debug"'],
    [{ tokenBudget: { limit: 'many' } }, 'option "tokenBudget.limit" must be an integer ≥ 1 (got "many")'],
    [{ impliedScopes: { 'notes:write': 'notes:read' } }, 'option "impliedScopes" must be an object mapping each scope'],
    [
      { logger: { info: () => undefined, warn: () => undefined, child: () => undefined } },
      'option "logger" must be an object with trace(), debug(), info(), warn(), error(), fatal() and child() (got an object)',
    ],
    [
      { tasks: { store: { create: async () => undefined, get: async () => undefined } } },
      'option "tasks.store" must be an object with create(), get(), update() and list() (got an object)',
    ],
  ])('checks nested options: %j', (given, message) => {
    expect(thrown({ ...base, ...given }).problem).toContain(message);
  });

  it('requires name, version and providers, and an object', () => {
    expect(thrown({ version: '1', providers: [] }).problem).toBe('createApp: option "name" is required: a string');
    expect(thrown({ name: 'n', version: '1' }).problem).toBe('createApp: option "providers" is required: an array');
    expect(thrown(undefined).problem).toBe('createApp: the options must be an object (got undefined)');
  });

  it('refuses an unknown option, suggesting a close one', () => {
    const close = thrown({ ...base, maxBatchLenght: 10 });
    expect(close.problem).toBe('createApp: option "maxBatchLenght" is unknown; did you mean "maxBatchLength"?');
    expect(close.fixes).toEqual(['Rename it "maxBatchLength".']);
    expect(thrown({ ...base, maxinflight: 1 }).problem).toBe('createApp: option "maxinflight" is unknown');
    expect(thrown({ ...base, Logger: {} }).problem).toContain('did you mean "logger"?');
    // An unknown name whose value is undefined changes nothing: it is let through.
    expect(() => createApp({ ...base, nothing: undefined } as AppOptions)).not.toThrow();
  });

  it('keeps the defaults of before', () => {
    const read = readOptions(APP_OPTIONS, base, { label: 'createApp', fail: (problem) => new Error(problem) });
    expect(read).toMatchObject({
      logArguments: false,
      clientLogging: false,
      subscriptions: false,
      dynamic: false,
      requestTimeoutMs: 60_000,
      maxBatchLength: 100,
      maxRequestsInFlight: 1_000,
      maxSubscriptions: 1_000,
      maxListenFilterEntries: 100,
      maxRequestStateBytes: 262_144,
      maxUriLength: 8_192,
      maxInputResponsesBytes: 131_072,
      maxInputDepth: 64,
      tasks: { defaultTtlMs: 3_600_000, maxTtlMs: 86_400_000, pollIntervalMs: 1_000, pageSize: 50 },
      requireAuth: false,
    });
    expect(read).not.toHaveProperty('pageSize');
    expect(read).not.toHaveProperty('toolTimeoutMs');
  });
});
