import type { AppEvent, EventBus } from '@mcpkit/core';
import type { Keys } from './keys';
import type { RedisLink } from './redis-link';
import { APPEND_BROADCAST } from './scripts';

interface Envelope {
  /** The instance that published it. */
  o: string;
  e: AppEvent;
}

/**
 * The app event bus across instances: an event reaches this process's listeners at once, and
 * every other instance's through one PUBLISH on `<prefix>bus`. A list change or resource update
 * is first appended to `<prefix>bcast`, the log the session router hands to GET streams (the
 * bus only wakes it: `onBroadcast`), and published once it is there, so whoever hears it reads
 * it from the log. Pub/sub is at most once: an instance that is disconnected from Redis misses
 * what is published meanwhile (its GET streams still get it from `bcast`).
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
    /** A broadcast was recorded (here) or heard (from another instance): the router reads `bcast`. */
    private readonly onBroadcast: () => void = () => undefined,
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
      if (envelope.o === this.instanceId || envelope.e === undefined) return;
      this.emit(envelope.e);
      if (envelope.e.type === 'listChanged' || envelope.e.type === 'resourceUpdated') this.onBroadcast();
    });
  }

  publish(event: AppEvent): void {
    this.emit(event);
    const envelope: Envelope = { o: this.instanceId, e: event };
    const publish = (): void => {
      this.link.send(['PUBLISH', this.keys.bus, JSON.stringify(envelope)]).catch((error: unknown) => this.onError(error, 'publish an app event'));
    };
    const entry = event.type === 'listChanged' ? ['l', event.list] : event.type === 'resourceUpdated' ? ['u', event.uri] : undefined;
    if (entry === undefined) {
      publish();
      return;
    }
    // In the log before anyone is woken to read it; published even when it could not be recorded
    // (live listeners elsewhere still hear it).
    this.link
      .send(['EVAL', APPEND_BROADCAST, '1', this.keys.broadcasts, String(this.maxBroadcasts), ...entry])
      .then(
        () => this.onBroadcast(),
        (error: unknown) => this.onError(error, 'record a broadcast'),
      )
      .finally(publish);
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
