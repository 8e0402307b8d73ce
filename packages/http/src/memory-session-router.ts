import type { JsonRpcMessage } from '@mcpkit/core';
import type {
  ChangedList,
  ForwardTarget,
  MissedBroadcasts,
  RoutedEvent,
  RouterAttachment,
  RouterHandlers,
  RouterReader,
  SessionRouter,
} from './session-router';

interface Log {
  events: RoutedEvent[];
  delivered: string;
  owner: MemorySessionRouter | undefined;
  reader: RouterReader | undefined;
  subscriptions: Set<string>;
}

/** Positions are `<n>-0`, like Redis stream ids, so the same SSE ids work with either. */
function position(n: number): string {
  return `${n}-0`;
}

function sequence(position: string): number | undefined {
  const match = /^(\d+)-0$/.exec(position);
  return match === null ? undefined : Number(match[1]);
}

/**
 * The in-process instances of a `MemorySessionRouter`: what they share (the logs, the
 * broadcasts, who reads what). The reference implementation the router contract tests hold
 * Redis's to, and a way to run several endpoints in one process in a test.
 *
 * @example
 * const hub = new MemoryRouterHub();
 * const a = hub.router('a');
 * const b = hub.router('b');
 */
export class MemoryRouterHub {
  /** @internal */
  readonly logs = new Map<string, Log>();
  /** @internal */
  readonly routers = new Map<string, MemorySessionRouter>();
  /** @internal */
  readonly broadcasts: Array<{ at: number; list?: ChangedList; uri?: string }> = [];
  /** @internal */
  counter = 0;
  /** Most events kept per session log (default 1 000). */
  constructor(readonly maxEvents = 1_000) {}

  /** The router of instance `instanceId`. */
  router(instanceId: string): MemorySessionRouter {
    const router = new MemorySessionRouter(instanceId, this);
    this.routers.set(instanceId, router);
    return router;
  }

  /** Records a broadcast list change (what a shared event bus does on publish). */
  recordListChange(list: ChangedList): void {
    this.counter += 1;
    this.broadcasts.push({ at: this.counter, list });
  }

  /** Records a broadcast resource update. */
  recordResourceUpdate(uri: string): void {
    this.counter += 1;
    this.broadcasts.push({ at: this.counter, uri });
  }

  /** @internal */
  log(sessionId: string): Log {
    let log = this.logs.get(sessionId);
    if (!log) this.logs.set(sessionId, (log = { events: [], delivered: position(0), owner: undefined, reader: undefined, subscriptions: new Set() }));
    return log;
  }
}

/** One instance's router on a `MemoryRouterHub`. */
export class MemorySessionRouter implements SessionRouter {
  private handlers: RouterHandlers | undefined = undefined;
  private closed = false;

  constructor(
    readonly instanceId: string,
    private readonly hub: MemoryRouterHub,
  ) {}

  start(handlers: RouterHandlers): void {
    this.handlers = handlers;
  }

  send(sessionId: string, data: string): Promise<void> {
    const log = this.hub.log(sessionId);
    this.hub.counter += 1;
    const event = { id: position(this.hub.counter), data };
    log.events.push(event);
    if (log.events.length > this.hub.maxEvents) log.events.shift();
    if (log.reader) {
      log.delivered = event.id;
      log.reader.events([event]);
    }
    return Promise.resolve();
  }

  attach(sessionId: string, after: string | undefined, reader: RouterReader): Promise<RouterAttachment | undefined> {
    const log = this.hub.log(sessionId);
    const from = after ?? log.delivered;
    const n = sequence(from);
    if (n === undefined) return Promise.resolve(undefined);
    const index = log.events.findIndex((event) => event.id === from);
    if (n !== 0 && index === -1) return Promise.resolve(undefined);
    const previous = log.reader;
    log.reader = reader;
    log.owner = this;
    if (previous && previous !== reader) previous.evicted();
    const missed = log.events.filter((event) => (sequence(event.id) ?? 0) > n);
    if (missed.length > 0) {
      log.delivered = missed[missed.length - 1].id;
      // After the caller had its turn to write the priming event, as with Redis's round trip.
      queueMicrotask(() => {
        if (log.reader === reader) reader.events(missed);
      });
    }
    return Promise.resolve({
      position: from,
      detach: () => {
        if (log.reader !== reader) return;
        log.reader = undefined;
        log.owner = undefined;
      },
    });
  }

  missedSince(sessionId: string, after: string): Promise<MissedBroadcasts> {
    const n = sequence(after) ?? 0;
    const since = this.hub.broadcasts.filter((entry) => entry.at > n);
    const subscriptions = this.hub.logs.get(sessionId)?.subscriptions ?? new Set<string>();
    const lists = new Set(since.flatMap((entry) => (entry.list === undefined ? [] : [entry.list])));
    const resources = new Set(since.flatMap((entry) => (entry.uri !== undefined && subscriptions.has(entry.uri) ? [entry.uri] : [])));
    return Promise.resolve({ lists: [...lists], resources: [...resources] });
  }

  forward(sessionId: string, message: JsonRpcMessage, target: ForwardTarget): Promise<boolean> {
    const targets = target === 'all' ? [...this.hub.routers.values()] : [this.hub.routers.get(target.instance)].filter((r) => r !== undefined);
    let reached = false;
    for (const router of targets) {
      if (router.closed) continue;
      reached = true;
      router.handlers?.deliver(sessionId, message);
    }
    return Promise.resolve(reached);
  }

  subscribe(sessionId: string, uri: string, on: boolean): Promise<void> {
    const { subscriptions } = this.hub.log(sessionId);
    if (on) subscriptions.add(uri);
    else subscriptions.delete(uri);
    return Promise.resolve();
  }

  subscribed(sessionIds: readonly string[], uri: string): Promise<boolean[]> {
    return Promise.resolve(sessionIds.map((id) => this.hub.logs.get(id)?.subscriptions.has(uri) === true));
  }

  deleteSession(sessionId: string): Promise<void> {
    const log = this.hub.logs.get(sessionId);
    this.hub.logs.delete(sessionId);
    log?.reader?.evicted();
    for (const router of this.hub.routers.values()) if (router !== this && !router.closed) router.handlers?.ended?.(sessionId);
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.closed = true;
    for (const log of this.hub.logs.values()) {
      if (log.owner === this) {
        log.reader?.evicted();
        log.reader = undefined;
        log.owner = undefined;
      }
    }
    return Promise.resolve();
  }
}
