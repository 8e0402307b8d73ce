import type { JsonRpcMessage } from '@mcpkit/core';
import { broadcastText, isRoutedPosition, type Broadcast } from '../../src/routed-position';
import type {
  ChangedList,
  ForwardTarget,
  ResumePosition,
  RoutedEvent,
  RouterAttachment,
  RouterHandlers,
  RouterPosition,
  RouterReader,
  SessionRouter,
} from '../../src/session-router';

/** The reader of a session's GET stream and where it is in both logs. */
interface Held {
  readonly reader: RouterReader;
  readonly owner: MemorySessionRouter;
  log: string;
  broadcasts: string;
}

interface Log {
  events: Array<{ id: string; data: string }>;
  /** The stored delivery cursors: where a GET without `Last-Event-ID` starts. */
  delivered: string;
  deliveredBroadcasts: string | undefined;
  held: Held | undefined;
  /** URI → the broadcast log's tail when the session subscribed (it hears later updates only). */
  subscriptions: Map<string, number>;
}

/** Positions are `<n>-0`, like Redis stream ids, so the same SSE ids work with either. */
function position(n: number): string {
  return `${n}-0`;
}

function sequence(position: string): number | undefined {
  const match = /^(\d+)-0$/.exec(position);
  return match === null ? undefined : Number(match[1]);
}

/** The sequence of any routed position (`<n>-<m>` orders as `<n>` here: the hub mints only `<n>-0`). */
function order(position: string): number {
  return Number(position.split('-')[0]);
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
 * hub.recordListChange('tools'); // what a shared event bus does on publish
 */
export class MemoryRouterHub {
  /** @internal */
  readonly logs = new Map<string, Log>();
  /** @internal */
  readonly routers = new Map<string, MemorySessionRouter>();
  /** @internal */
  readonly broadcasts: Array<{ id: string; broadcast: Broadcast }> = [];
  /** @internal The newest broadcast trimmed away: positions before it cannot be resumed. */
  trimmed = 0;
  /** @internal */
  counter = 0;
  /**
   * @param maxEvents most events kept per session log (default 1 000)
   * @param maxBroadcasts most broadcasts kept for streams that resume (default 1 000)
   */
  constructor(
    readonly maxEvents = 1_000,
    readonly maxBroadcasts = 1_000,
  ) {}

  /** The router of instance `instanceId`. */
  router(instanceId: string): MemorySessionRouter {
    const router = new MemorySessionRouter(instanceId, this);
    this.routers.set(instanceId, router);
    return router;
  }

  /** Records a broadcast list change (what a shared event bus does on publish). */
  recordListChange(list: ChangedList): void {
    this.record({ list });
  }

  /** Records a broadcast resource update. */
  recordResourceUpdate(uri: string): void {
    this.record({ uri });
  }

  /** @internal The broadcast log's tail: what a new session starts after. */
  get tail(): string {
    return position(this.counter);
  }

  /** @internal */
  log(sessionId: string): Log {
    let log = this.logs.get(sessionId);
    if (!log)
      this.logs.set(sessionId, (log = { events: [], delivered: position(0), deliveredBroadcasts: undefined, held: undefined, subscriptions: new Map() }));
    return log;
  }

  /** @internal The broadcasts after `after` that the session of `log` hears, for `reader`. */
  broadcastsAfter(after: string, log: Log, reader: RouterReader): Array<{ id: string; data: string | undefined }> {
    const n = order(after);
    return this.broadcasts.filter((entry) => order(entry.id) > n).map((entry) => ({ id: entry.id, data: heard(entry, log, reader) }));
  }

  private record(broadcast: Broadcast): void {
    this.counter += 1;
    const entry = { id: position(this.counter), broadcast };
    this.broadcasts.push(entry);
    while (this.broadcasts.length > this.maxBroadcasts) this.trimmed = order(this.broadcasts.shift()!.id);
    // Each held stream once, from its own position: what every instance's reader of the log does.
    for (const log of this.logs.values()) {
      const held = log.held;
      if (held === undefined || order(held.broadcasts) >= this.counter) continue;
      held.broadcasts = entry.id;
      log.deliveredBroadcasts = entry.id;
      const data = heard(entry, log, held.reader);
      if (data !== undefined) held.reader.events([{ position: { log: held.log, broadcasts: held.broadcasts }, data }]);
    }
  }
}

/** The text of a broadcast for a session, or undefined when it does not hear it. */
function heard(entry: { id: string; broadcast: Broadcast }, log: Log, reader: RouterReader): string | undefined {
  const { broadcast } = entry;
  const since = 'uri' in broadcast ? log.subscriptions.get(broadcast.uri) : undefined;
  const hears = 'list' in broadcast ? reader.announces(broadcast.list) : since !== undefined && order(entry.id) > since;
  return hears ? broadcastText(broadcast) : undefined;
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
    const held = log.held;
    if (held) {
      held.log = event.id;
      log.delivered = event.id;
      log.deliveredBroadcasts = held.broadcasts;
      held.reader.events([{ position: { log: held.log, broadcasts: held.broadcasts }, data }]);
    }
    return Promise.resolve();
  }

  created(sessionId: string): Promise<void> {
    this.hub.log(sessionId).deliveredBroadcasts = this.hub.tail;
    return Promise.resolve();
  }

  attach(sessionId: string, after: ResumePosition | undefined, reader: RouterReader): Promise<RouterAttachment | undefined> {
    const log = this.hub.log(sessionId);
    const from = after?.log ?? log.delivered;
    const n = sequence(from);
    if (n === undefined) return Promise.resolve(undefined);
    if (n !== 0 && !log.events.some((event) => event.id === from)) return Promise.resolve(undefined);
    // An id of a version that carried the log's position only: broadcasts after the same point.
    const broadcasts = after === undefined ? (log.deliveredBroadcasts ?? this.hub.tail) : (after.broadcasts ?? from);
    if (!isRoutedPosition(broadcasts)) return Promise.resolve(undefined);
    const b = order(broadcasts);
    if (after?.broadcasts !== undefined && (b > this.hub.counter || b < this.hub.trimmed)) return Promise.resolve(undefined);
    const previous = log.held;
    const held: Held = { reader, owner: this, log: from, broadcasts };
    log.held = held;
    if (previous && previous.reader !== reader) previous.reader.evicted();
    // Both logs merged in the order they were written (one counter mints both here).
    const missed = [
      ...log.events.filter((event) => order(event.id) > n).map((event) => ({ kind: 'log' as const, id: event.id, data: event.data as string | undefined })),
      ...this.hub.broadcastsAfter(broadcasts, log, reader).map((entry) => ({ kind: 'broadcast' as const, ...entry })),
    ].sort((x, y) => order(x.id) - order(y.id));
    const events: RoutedEvent[] = [];
    for (const entry of missed) {
      if (entry.kind === 'log') held.log = entry.id;
      else held.broadcasts = entry.id;
      if (entry.data !== undefined) events.push({ position: { log: held.log, broadcasts: held.broadcasts }, data: entry.data });
    }
    log.delivered = held.log;
    log.deliveredBroadcasts = held.broadcasts;
    const start: RouterPosition = { log: from, broadcasts };
    // Delivered before the caller writes its priming event: it buffers them until then.
    if (events.length > 0) reader.events(events);
    return Promise.resolve({
      position: start,
      detach: () => {
        if (log.held === held) log.held = undefined;
      },
    });
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
    if (on && !subscriptions.has(uri)) subscriptions.set(uri, this.hub.counter);
    else if (!on) subscriptions.delete(uri);
    return Promise.resolve();
  }

  subscribed(sessionIds: readonly string[], uri: string): Promise<boolean[]> {
    return Promise.resolve(sessionIds.map((id) => this.hub.logs.get(id)?.subscriptions.has(uri) === true));
  }

  deleteSession(sessionId: string): Promise<void> {
    const log = this.hub.logs.get(sessionId);
    this.hub.logs.delete(sessionId);
    log?.held?.reader.evicted();
    for (const router of this.hub.routers.values()) if (router !== this && !router.closed) router.handlers?.ended?.(sessionId);
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.closed = true;
    for (const log of this.hub.logs.values()) {
      if (log.held?.owner === this) {
        const { reader } = log.held;
        log.held = undefined;
        reader.evicted();
      }
    }
    return Promise.resolve();
  }
}
