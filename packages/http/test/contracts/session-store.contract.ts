import type { SessionRecord, SessionStore } from '../../src/session-store';

/** What a session-store contract run needs: a fresh, empty store per test. */
export interface SessionStoreFixture {
  store: SessionStore;
  cleanup?: () => Promise<void> | void;
}

const record = (id: string): SessionRecord => ({
  id,
  client: { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, info: { name: 'contract', version: '1.0.0' } },
  createdAt: 1_700_000_000_000,
  principal: 'https://issuer.example alice',
});

/** The behaviour every SessionStore shares, memory or shared. */
export function sessionStoreContract(name: string, make: () => Promise<SessionStoreFixture> | SessionStoreFixture): void {
  describe(`SessionStore contract: ${name}`, () => {
    let fixture: SessionStoreFixture;
    beforeEach(async () => {
      fixture = await make();
    });
    afterEach(async () => {
      await fixture.cleanup?.();
    });

    it('gives back the record it was given, field for field', async () => {
      await fixture.store.set(record('s-1'));
      expect(await fixture.store.get('s-1')).toEqual(record('s-1'));
    });

    it('knows nothing of a session it was never given', async () => {
      expect(await fixture.store.get('never')).toBeUndefined();
    });

    it('forgets a deleted session, and deleting twice is harmless', async () => {
      await fixture.store.set(record('s-2'));
      await fixture.store.delete('s-2');
      await fixture.store.delete('s-2');
      expect(await fixture.store.get('s-2')).toBeUndefined();
    });

    it('keeps sessions apart', async () => {
      await fixture.store.set(record('s-3'));
      await fixture.store.set({ ...record('s-4'), principal: undefined });
      await fixture.store.delete('s-3');
      expect(await fixture.store.get('s-3')).toBeUndefined();
      expect((await fixture.store.get('s-4'))?.id).toBe('s-4');
    });
  });
}
