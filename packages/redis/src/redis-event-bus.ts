import type { AppEvent, EventBus } from '@mcpkit/core';
import type { Keys } from './keys';
import type { RedisLink } from './redis-link';

interface Envelope {
  /** The instance that published it. */
  o: string;
  e: AppEvent;
}

/**
 * The app event bus across instances: an event reaches this process's listeners at once, and
 * every other instance's through one PUBLISH on `<prefix>bus`. A list change or resource update
 * is also appended to `<prefix>bcast`, so a session's GET stream that resumes later (on any
 * instance) still hears of it. Pub/sub is at most once: an instance that is disconnected from Redis misses what is
 * published meanwhile (its listens and streams get list changes again from `bcast` on resume).
 * Publishing never throws; a Redis failure is logged and the local listeners are still told.
 */
export class RedisEventBus implements EventBus {
  private readonly listeners = new Set<(event: AppEvent) => void>();

  constructor(
    private readonly link: RedisLink,
    private readonly keys: Keys,
    private readonly instanceId: string,
    private readonly maxBroadcasts: number,
    private readonly onError: (error: unknown, what: string) => void,
  ) {}

  /** Subscribes to the other instances' events; resolves once subscribed. */
  start(): Promise<void> {
    return this.link.subscribe(this.keys.bus, (text) => {
      let envelope: Envelope;
      try {
        envelope = JSON.parse(text) as Envelope;
      } catch {
        return;
      }
      if (envelope.o !== this.instanceId && envelope.e !== undefined) this.emit(envelope.e);
    });
  }

  publish(event: AppEvent): void {
    this.emit(event);
    const envelope: Envelope = { o: this.instanceId, e: event };
    this.link.send(['PUBLISH', this.keys.bus, JSON.stringify(envelope)]).catch((error: unknown) => this.onError(error, 'publish an app event'));
    const entry = event.type === 'listChanged' ? ['l', event.list] : event.type === 'resourceUpdated' ? ['u', event.uri] : undefined;
    if (entry !== undefined) {
      this.link
        .send(['XADD', this.keys.broadcasts, 'MAXLEN', '~', String(this.maxBroadcasts), '*', ...entry])
        .catch((error: unknown) => this.onError(error, 'record a broadcast'));
    }
  }

  subscribe(listener: (event: AppEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: AppEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.onError(error, 'deliver an app event');
      }
    }
  }
}
