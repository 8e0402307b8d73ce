import { MemoryRateLimitStore, type RateLimitStore } from '@mcpkit/core';
import pino from 'pino';
import { EndpointRateLimit } from './endpoint-rate-limit';

const silent = pino({ level: 'silent' });

describe('EndpointRateLimit', () => {
  describe('check', () => {
    it('keys by subject when authenticated, else by address, and answers 429 with Retry-After in whole seconds', async () => {
      let now = 0;
      const limit = new EndpointRateLimit({ limit: 1, windowMs: 10_000, store: new MemoryRateLimitStore({ now: () => now }) });
      const ada = { auth: { subject: 'ada', issuer: 'https://as', scopes: [] }, remoteAddress: '10.0.0.1' };
      expect(await limit.check(ada, silent)).toBeUndefined();
      // Same subject from elsewhere: the same bucket; another subject on the same address: its own.
      const again = await limit.check({ ...ada, remoteAddress: '10.0.0.2' }, silent);
      expect(again?.status).toBe(429);
      expect(again?.headers['retry-after']).toBe('10');
      expect(JSON.parse(again!.body!)).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Too Many Requests: retry in 10 s', data: { retryAfterMs: 10_000 } },
      });
      expect(await limit.check({ auth: { subject: 'bo', scopes: [] }, remoteAddress: '10.0.0.1' }, silent)).toBeUndefined();
      expect(await limit.check({ auth: undefined, remoteAddress: '10.0.0.1' }, silent)).toBeUndefined();
      expect((await limit.check({ auth: undefined, remoteAddress: '10.0.0.1' }, silent))?.status).toBe(429);
      expect(await limit.check({ auth: undefined, remoteAddress: '10.0.0.3' }, silent)).toBeUndefined();
      now = 9_500;
      expect((await limit.check(ada, silent))?.headers['retry-after']).toBe('1');
      now = 10_000;
      expect(await limit.check(ada, silent)).toBeUndefined();
    });

    it('runs on the clock it is given: the default store refills and a blocked address is let in again by it alone', async () => {
      let now = 0;
      const limit = new EndpointRateLimit({ limit: 1, windowMs: 10_000, now: () => now });
      expect(await limit.check({ auth: undefined, remoteAddress: '10.0.0.1' }, silent)).toBeUndefined();
      expect((await limit.check({ auth: undefined, remoteAddress: '10.0.0.1' }, silent))?.headers['retry-after']).toBe('10');
      expect((await limit.beforeTokenCheck('10.0.0.1', silent)).refused?.headers['retry-after']).toBe('10');
      now = 9_999;
      expect((await limit.beforeTokenCheck('10.0.0.1', silent)).refused?.status).toBe(429);
      now = 10_000;
      const gate = await limit.beforeTokenCheck('10.0.0.1', silent);
      expect(gate.refused).toBeUndefined();
      expect(await limit.check({ auth: undefined, remoteAddress: '10.0.0.1' }, silent)).toBeUndefined();
    });

    it('uses a store behind the interface (async, as Redis would be) and a key of your own', async () => {
      const keys: string[] = [];
      const store: RateLimitStore = { take: async (key) => (keys.push(key), keys.length > 1 ? 1_500 : 0) };
      const limit = new EndpointRateLimit({ limit: 5, windowMs: 1_000, store, by: () => 'tenant-a' });
      expect(await limit.check({ auth: undefined, remoteAddress: 'x' }, silent)).toBeUndefined();
      expect((await limit.check({ auth: undefined, remoteAddress: 'y' }, silent))?.headers['retry-after']).toBe('2');
      expect(keys).toEqual(['http:tenant-a', 'http:tenant-a']);
    });

    it('lets a request through when the store fails, and logs it', async () => {
      const errors: unknown[] = [];
      const logger = { ...silent, error: (...args: unknown[]) => void errors.push(args) } as unknown as typeof silent;
      const limit = new EndpointRateLimit({
        limit: 1,
        windowMs: 1_000,
        store: {
          take: () => {
            throw new Error('redis down');
          },
        },
      });
      expect(await limit.check({ auth: undefined, remoteAddress: 'x' }, logger)).toBeUndefined();
      expect(errors).toHaveLength(1);
    });
  });

  it('refuses bad options when made', () => {
    expect(() => new EndpointRateLimit({ limit: 0, windowMs: 1 })).toThrow(TypeError);
    expect(() => new EndpointRateLimit({ limit: 1, windowMs: -1 })).toThrow(TypeError);
    expect(() => new EndpointRateLimit({ limit: 1, windowMs: 1, store: {} as RateLimitStore })).toThrow(/store/);
    expect(() => new EndpointRateLimit({ limit: 1, windowMs: 1, now: 5 as unknown as () => number })).toThrow(/now/);
  });
});
