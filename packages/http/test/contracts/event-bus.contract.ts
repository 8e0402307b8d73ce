import type { AppEvent, EventBus } from '@mcpkit/core';

/** Two buses of two instances (the same object for an in-process bus), and how long delivery may take. */
export interface EventBusFixture {
  a: EventBus;
  b: EventBus;
  cleanup?: () => Promise<void> | void;
}

const until = async (check: () => boolean, ms = 2_000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
};

/** The behaviour every EventBus shares: an event reaches every listener of every instance, once. */
export function eventBusContract(name: string, make: () => Promise<EventBusFixture> | EventBusFixture): void {
  describe(`EventBus contract: ${name}`, () => {
    let fixture: EventBusFixture;
    beforeEach(async () => {
      fixture = await make();
    });
    afterEach(async () => {
      await fixture.cleanup?.();
    });

    it("delivers each event once to the listeners of both instances, in order, the publisher's at once", async () => {
      const onA: AppEvent[] = [];
      const onB: AppEvent[] = [];
      fixture.a.subscribe((event) => onA.push(event));
      fixture.b.subscribe((event) => onB.push(event));
      const events: AppEvent[] = [
        { type: 'listChanged', list: 'tools' },
        { type: 'resourceUpdated', uri: 'notes://1' },
        { type: 'listChanged', list: 'prompts' },
      ];
      for (const event of events) fixture.a.publish(event);
      expect(onA).toEqual(events);
      await until(() => onB.length >= events.length);
      // Time for a duplicate to show up, if one were coming.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(onB).toEqual(events);
      expect(onA).toEqual(events);
    });

    it('stops delivering to a listener that unsubscribed', async () => {
      const seen: AppEvent[] = [];
      const off = fixture.b.subscribe((event) => seen.push(event));
      off();
      const probe: AppEvent[] = [];
      fixture.b.subscribe((event) => probe.push(event));
      fixture.a.publish({ type: 'listChanged', list: 'resources' });
      await until(() => probe.length === 1);
      expect(probe).toHaveLength(1);
      expect(seen).toEqual([]);
    });
  });
}
