import type { RequestStateStore } from '@mcpkit/core';

/** A fresh request-state store; `other`, when given, is another instance's view of the same state. */
export interface RequestStateStoreFixture {
  store: RequestStateStore;
  other?: RequestStateStore;
  cleanup?: () => Promise<void> | void;
}

/** The behaviour every RequestStateStore shares: an exchange is taken once, until released or expired. */
export function requestStateStoreContract(name: string, make: () => Promise<RequestStateStoreFixture> | RequestStateStoreFixture): void {
  describe(`RequestStateStore contract: ${name}`, () => {
    let fixture: RequestStateStoreFixture;
    beforeEach(async () => {
      fixture = await make();
    });
    afterEach(async () => {
      await fixture.cleanup?.();
    });

    it('takes an exchange once, and again once released; exchanges stay apart', async () => {
      const { store } = fixture;
      const until = Date.now() + 60_000;
      expect(await store.claim('x1', until)).toBe(true);
      expect(await store.claim('x1', until)).toBe(false);
      expect(await store.claim('x2', until)).toBe(true);
      await store.release('x1');
      expect(await store.claim('x1', until)).toBe(true);
      expect(await store.claim('x2', until)).toBe(false);
    });

    it('forgets an exchange once its states have expired', async () => {
      expect(await fixture.store.claim('x3', Date.now() + 100)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(await fixture.store.claim('x3', Date.now() + 60_000)).toBe(true);
    });

    it('is shared with the other instance, when there is one', async () => {
      const { store, other } = fixture;
      if (other === undefined) return;
      expect(await store.claim('x4', Date.now() + 60_000)).toBe(true);
      expect(await other.claim('x4', Date.now() + 60_000)).toBe(false);
      await other.release('x4');
      expect(await store.claim('x4', Date.now() + 60_000)).toBe(true);
    });
  });
}
