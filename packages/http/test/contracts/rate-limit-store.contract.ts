import type { RateLimitStore } from '@mcpkit/core';

/** A fresh rate-limit store (keys of one test never meet another's). */
export interface RateLimitStoreFixture {
  store: RateLimitStore;
  cleanup?: () => Promise<void> | void;
}

/** The behaviour every RateLimitStore shares: `limit` calls per window, then the wait. */
export function rateLimitStoreContract(name: string, make: () => Promise<RateLimitStoreFixture> | RateLimitStoreFixture): void {
  describe(`RateLimitStore contract: ${name}`, () => {
    let fixture: RateLimitStoreFixture;
    beforeEach(async () => {
      fixture = await make();
    });
    afterEach(async () => {
      await fixture.cleanup?.();
    });

    it('lets `limit` calls through, then says how long until the next', async () => {
      for (let i = 0; i < 3; i += 1) expect(await fixture.store.take('k1', 3, 60_000)).toBe(0);
      const wait = await fixture.store.take('k1', 3, 60_000);
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(20_000);
    });

    it('keeps keys apart', async () => {
      expect(await fixture.store.take('k2', 1, 60_000)).toBe(0);
      expect(await fixture.store.take('k2', 1, 60_000)).toBeGreaterThan(0);
      expect(await fixture.store.take('k3', 1, 60_000)).toBe(0);
    });

    it('refills over the window', async () => {
      expect(await fixture.store.take('k4', 1, 100)).toBe(0);
      expect(await fixture.store.take('k4', 1, 100)).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(await fixture.store.take('k4', 1, 100)).toBe(0);
    });
  });
}
