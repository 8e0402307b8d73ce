import { randomBytes } from 'node:crypto';
import type { JsonRpcMessage } from '@mcpkit/core';
import { unrefTimer } from '@mcpkit/core/transport';
import {
  broadcastText,
  compareStreamIds,
  type Broadcast,
  type ChangedList,
  type FollowHandle,
  type ForwardTarget,
  type ResumePosition,
  type RoutedEvent,
  type RouterAttachment,
  type RouterHandlers,
  type RouterReader,
  type SessionRouter,
  type StreamFollower,
} from '@mcpkit/http/scale-out';
import type { Keys } from './keys';
import type { RedisLink } from './redis-link';
import type { RedisEventStore } from './redis-event-store';
import { BROADCAST_BOUNDS, CLAIM_PREFIX, RELEASE_OWNER, RELEASE_STREAM, RENEW_OWNER, SET_BROADCAST_CURSOR, SET_CURSORS } from './scripts';

/** Broadcast-log entries read per command: a reader far behind takes a few reads, each bounded. */
const BROADCAST_BATCH = 256;

/** What one instance's inbox carries. */
type InboxMessage =
  /** The session's GET log grew: read it (only a hint: the log is the truth). */
  | { t: 'wake'; s: string }
  /** Another instance took the session's GET stream, or the session ended. */
  | { t: 'evict'; s: string }
  /** A client message for a request of this instance (or, on the route channel, any instance). */
  | { t: 'fwd'; s: string; m: JsonRpcMessage }
  /** On the route channel: the session was deleted through instance `i`; every other drops its copy. */
  | { t: 'end'; s: string; i: string };

/** The GET stream of a session while this instance reads it. */
class LocalReader {
  reading = false;
  again = false;
  closed = false;
  /** Caught up with the broadcast log: the instance's fan-out serves it from now on. */
  live = false;

  constructor(
    readonly sessionId: string,
    /** After this entry of the session's GET log. */
    public cursor: string,
    /** After this entry of the broadcast log. */
    public broadcasts: string,
    readonly reader: RouterReader,
  ) {}
}

/** A POST stream another instance writes, followed here for a client that resumed it. */
class FollowedStream {
  reading = false;
  closed = false;
  /** When the writer's inbox was first seen without a subscriber (undefined: it has one). */
  silentSince: number | undefined = undefined;
  timer: NodeJS.Timeout | undefined = undefined;
  /** A poll failed (Redis unreachable) and was logged: the next failures are not, until one succeeds. */
  failing = false;

  constructor(
    readonly sessionId: string,
    readonly streamId: string,
    readonly writer: string,
    /** The sequence of the last event delivered (POST stream ids are `<stream>_<n>`, kept as `0-<n>`). */
    public cursor: number,
    readonly follower: StreamFollower,
  ) {}
}

/** How following POST streams is bounded. */
export interface FollowBounds {
  /** How often a followed stream is read, in ms. */
  pollMs: number;
  /** Most streams followed at once by this instance. */
  max: number;
  /** How long the writer's inbox must stay without a subscriber before it counts as gone, in ms. */
  graceMs: number;
}

const DEFAULT_FOLLOW: FollowBounds = { pollMs: 250, max: 100, graceMs: 2_000 };

/** One entry of the broadcast log. */
interface BroadcastEntry {
  readonly id: string;
  readonly broadcast: Broadcast;
}
/**
 * Adds (ARGV[1] '1') or removes a subscription of a live session, the set living as long as the
 * record (each request slides both): nothing is written for a session that is gone. KEYS: record,
 * subscriptions, subscribed-since. ARGV: on, URI, the broadcast log's tail (kept from the first
 * subscribe: the session hears the updates raised after it).
 */
const SUBSCRIBE = `
local ttl = redis.call('PTTL', KEYS[1])
if ttl == -2 then return 0 end
if ARGV[1] == '1' then
  redis.call('SADD', KEYS[2], ARGV[2])
  redis.call('HSETNX', KEYS[3], ARGV[2], ARGV[3])
else
  redis.call('SREM', KEYS[2], ARGV[2])
  redis.call('HDEL', KEYS[3], ARGV[2])
end
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) redis.call('PEXPIRE', KEYS[3], ttl) end
return 1`;
/**
 * Since when a session is subscribed to a URI: the broadcast id it subscribed after ('0-0' for a
 * subscription made before these were kept), or nil when it is not. KEYS: subscriptions,
 * subscribed-since. ARGV: URI.
 */
const SUBSCRIBED_SINCE = `
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 0 then return false end
return redis.call('HGET', KEYS[2], ARGV[1]) or '0-0'`;

/**
 * The session router on Redis (scale-out.md §4, "stream log + per-instance inbox"). A session's
 * GET stream is a Redis STREAM (ids minted by Redis, so any number of instances may append to it
 * without two minting the same id); the instance holding the client's GET connection owns it
 * (`owner` key, a lease renewed while the connection lives, last GET wins) and reads it from its
 * cursor. An append PUBLISHes a wake-up to the owner's inbox; zero receivers means the owner
 * died, and its claim is dropped (the events wait in the log for the client's next GET).
 * Answers to server→client requests are forwarded to the inbox of the instance whose id the
 * request id carries; cancellations, and the end of a session deleted through one instance, go
 * to every instance.
 *
 * Broadcasts live in one log (`bcast`). Each instance reads it once, in order (woken by the bus,
 * and on every lease renewal in case a wake-up was lost), and hands each entry to the streams it
 * holds whose broadcast cursor is before it: one XRANGE per instance per broadcast, plus a
 * SISMEMBER per held stream for a resource update. A stream that attaches first catches up from
 * its own cursor; both run in one queue, so an entry is never handed to a stream twice or
 * skipped between its catch-up and the live fan-out. The broadcast cursor is stored beside `gc`
 * when the GET log is delivered, the lease renewed or the stream let go: never per broadcast.
 */
export class RedisSessionRouter implements SessionRouter {
  private readonly readers = new Map<string, LocalReader>();
  private readonly follows = new Set<FollowedStream>();
  private handlers: RouterHandlers | undefined = undefined;
  private renewer: NodeJS.Timeout | undefined = undefined;
  private stopReady: (() => void) | undefined = undefined;
  /** The broadcasts' one reader on this instance: tasks run one at a time, in order. */
  private pump: Promise<void> = Promise.resolve();
  private readQueued = false;
  /** Where this instance's fan-out is in the broadcast log (undefined until first read). */
  private broadcastCursor: string | undefined = undefined;
  /** The prefix was found to be this app's (or another's, and this instance refuses): not asked again. */
  private prefixClaimed = false;

  constructor(
    readonly instanceId: string,
    private readonly link: RedisLink,
    private readonly keys: Keys,
    private readonly events: RedisEventStore,
    private readonly leaseMs: number,
    private readonly onError: (error: unknown, what: string) => void,
    private readonly onWaiterGone: (sessionId: string, message: JsonRpcMessage) => void,
    private readonly followBounds: FollowBounds = DEFAULT_FOLLOW,
    /** This run of the instance (`Keys.run`): its channel is subscribed while it lives. */
    private readonly run: string = `${instanceId}.${randomBytes(6).toString('hex')}`,
  ) {}

  /** The route channel: what every instance hears (cancellations). */
  private get routeChannel(): string {
    return `${this.keys.prefix}route`;
  }

  /** Subscribes this instance's inbox (and the route channel); resolves once subscribed. */
  async listen(): Promise<void> {
    const onMessage = (text: string): void => {
      let message: InboxMessage;
      try {
        message = JSON.parse(text) as InboxMessage;
      } catch {
        return;
      }
      this.onInbox(message);
    };
    await Promise.all([
      this.link.subscribe(this.keys.inbox(this.instanceId), onMessage),
      this.link.subscribe(this.routeChannel, onMessage),
      // Nothing is sent there: its subscriber count says this run lives (followers of its POST streams ask).
      this.link.subscribe(this.keys.run(this.run), () => undefined),
    ]);
    // Wake-ups published while the pub/sub connection was down are lost: read every log again.
    this.stopReady = this.link.onReady(() => {
      // Asked again after each reconnect: a Redis restarted without persistence forgot the claim.
      this.prefixClaimed = false;
      this.claimPrefix();
      for (const local of this.readers.values()) this.drain(local);
      this.broadcastsChanged();
    });
    this.broadcastCursor ??= await this.broadcastTail();
    this.renewer = unrefTimer(setInterval(() => this.renewAll(), Math.max(50, Math.floor(this.leaseMs / 3))));
  }

  start(handlers: RouterHandlers): void {
    this.handlers = handlers;
    this.claimPrefix();
  }

  /**
   * Two apps on one prefix (both on the default `mcpkit:`) would share sessions, broadcasts,
   * tasks and rate limits: the first app to start claims the prefix, and an instance of another
   * app refuses every command (its requests get 503) and says why.
   */
  private claimPrefix(): void {
    const app = this.handlers?.app;
    if (app === undefined || this.prefixClaimed) return;
    // Redis unreachable: asked again when the connection is back (see `listen`).
    this.link.send(['EVAL', CLAIM_PREFIX, '1', this.keys.app, app]).then(
      (owner) => this.claimed(app, owner),
      (error: unknown) => this.onError(error, 'check which app the prefix holds'),
    );
  }

  private claimed(app: string, owner: unknown): void {
    if (typeof owner !== 'string') return;
    this.prefixClaimed = true;
    if (owner === app) return;
    this.link.refuse(
      new Error(
        `Redis scale-out: the prefix "${this.keys.prefix}" holds the state of the app "${owner}", not of "${app}": this instance serves nothing (503); give each app its own prefix`,
      ),
    );
  }

  async send(sessionId: string, data: string): Promise<void> {
    const ownerKey = this.keys.owner(sessionId);
    // The frame's bytes as the reader writes it (id and field names included), about.
    const bytes = Buffer.byteLength(data) + 40;
    if (bytes > this.events.maxBytes) {
      // The log is the only way to the reader: an event it cannot keep is not delivered at all.
      this.onError(new Error(`a message of ${bytes} bytes is over maxEventBytesPerStream (${this.events.maxBytes})`), 'send to a session stream');
      return;
    }
    const [id, owner] = await Promise.all([this.events.appendRaw(sessionId, 'g', '*', data, bytes, true), this.link.send(['GET', ownerKey])]);
    if (id === undefined) return;
    if (typeof owner !== 'string') return;
    if (owner === this.instanceId) {
      const local = this.readers.get(sessionId);
      if (local) this.drain(local);
      return;
    }
    const receivers = Number(await this.link.send(['PUBLISH', this.keys.inbox(owner), JSON.stringify({ t: 'wake', s: sessionId })]));
    // Nobody listens on that inbox: the owner died. Its claim goes; the event waits for the next GET.
    if (receivers === 0) await this.link.send(['EVAL', RELEASE_OWNER, '1', ownerKey, owner]);
  }

  async created(sessionId: string): Promise<void> {
    const tail = await this.broadcastTail();
    await this.link.send(['EVAL', SET_BROADCAST_CURSOR, '1', this.keys.session(sessionId), tail]);
  }

  /** The broadcast log grew (a hint: the log is the truth): read it. */
  broadcastsChanged(): void {
    if (this.readQueued) return;
    this.readQueued = true;
    this.enqueue(async () => {
      this.readQueued = false;
      await this.readBroadcasts();
    });
  }

  async attach(sessionId: string, after: ResumePosition | undefined, reader: RouterReader): Promise<RouterAttachment | undefined> {
    const key = this.keys.events(sessionId, 'g');
    let cursor: string;
    let broadcasts: string;
    if (after !== undefined) {
      if (!/^\d+-\d+$/.test(after.log)) return undefined;
      // Checked now so an unknown position is refused before the stream is taken over.
      const [range, bounds] = await Promise.all([
        this.events.range(key, after.log),
        after.broadcasts === undefined ? undefined : (this.link.send(['EVAL', BROADCAST_BOUNDS, '1', this.keys.broadcasts]) as Promise<[string, string]>),
      ]);
      if (range === undefined) return undefined;
      // Ahead of the log, or before entries it no longer keeps: what came after cannot be replayed.
      if (bounds !== undefined && (compareStreamIds(after.broadcasts!, bounds[0]) > 0 || compareStreamIds(after.broadcasts!, bounds[1]) < 0)) return undefined;
      cursor = after.log;
      // An id of a version that carried the log's position only: both logs take their ids from
      // Redis's clock, so it orders broadcasts as those versions did.
      broadcasts = after.broadcasts ?? after.log;
    } else {
      const [delivered, deliveredBroadcasts] = (await this.link.send(['HMGET', this.keys.session(sessionId), 'gc', 'bc'])) as Array<string | null>;
      cursor = typeof delivered === 'string' ? delivered : '0-0';
      // A session recorded before broadcast cursors were stored: from now on, as those versions did.
      broadcasts = typeof deliveredBroadcasts === 'string' ? deliveredBroadcasts : await this.broadcastTail();
    }
    const [previous] = (await Promise.all([
      this.link.send(['SET', this.keys.owner(sessionId), this.instanceId, 'PX', String(this.leaseMs), 'GET']),
      // What the client says it saw is where its next GET without Last-Event-ID starts too (a
      // client whose resumed stream drops before any event sends none: the SDK forgets it).
      after === undefined ? undefined : this.link.send(['EVAL', SET_CURSORS, '1', this.keys.session(sessionId), cursor, broadcasts]),
    ])) as [string | null, unknown];
    const mine = this.readers.get(sessionId);
    if (mine) this.evictLocal(mine);
    if (typeof previous === 'string' && previous !== this.instanceId) {
      await this.link.send(['PUBLISH', this.keys.inbox(previous), JSON.stringify({ t: 'evict', s: sessionId })]);
    }
    const local = new LocalReader(sessionId, cursor, broadcasts, reader);
    this.readers.set(sessionId, local);
    this.drain(local);
    this.enqueue(() => this.catchUp(local));
    return {
      position: { log: cursor, broadcasts },
      detach: () => {
        if (local.closed) return;
        local.closed = true;
        if (this.readers.get(sessionId) === local) this.readers.delete(sessionId);
        this.release(local).catch((error: unknown) => this.onError(error, 'release a stream'));
      },
    };
  }

  async forward(sessionId: string, message: JsonRpcMessage, target: ForwardTarget): Promise<boolean> {
    const channel = target === 'all' ? this.routeChannel : this.keys.inbox(target.instance);
    const receivers = Number(await this.link.send(['PUBLISH', channel, JSON.stringify({ t: 'fwd', s: sessionId, m: message })]));
    return receivers > 0;
  }

  async subscribe(sessionId: string, uri: string, on: boolean): Promise<void> {
    const k = this.keys;
    const tail = on ? await this.broadcastTail() : '';
    await this.link.send(['EVAL', SUBSCRIBE, '3', k.session(sessionId), k.subscriptions(sessionId), k.subscribedSince(sessionId), on ? '1' : '0', uri, tail]);
  }

  async subscribed(sessionIds: readonly string[], uri: string): Promise<boolean[]> {
    const answers = await Promise.all(sessionIds.map((id) => this.link.send(['SISMEMBER', this.keys.subscriptions(id), uri])));
    return answers.map((answer) => Number(answer) === 1);
  }

  async deleteSession(sessionId: string): Promise<void> {
    const local = this.readers.get(sessionId);
    if (local) this.evictLocal(local);
    const owner = await this.link.send(['GET', this.keys.owner(sessionId)]);
    if (typeof owner === 'string' && owner !== this.instanceId) {
      await this.link.send(['PUBLISH', this.keys.inbox(owner), JSON.stringify({ t: 'evict', s: sessionId })]);
    }
    // Any instance may hold a copy running requests: each one ends its own, as a DELETE there would.
    await this.link.send(['PUBLISH', this.routeChannel, JSON.stringify({ t: 'end', s: sessionId, i: this.instanceId })]);
  }

  async follow(sessionId: string, streamId: string, writer: string, afterEventId: string, follower: StreamFollower): Promise<FollowHandle | undefined> {
    const tail = afterEventId.slice(afterEventId.lastIndexOf('_') + 1);
    if (this.follows.size >= this.followBounds.max || !afterEventId.startsWith(`${streamId}_`) || !/^\d{1,15}$/.test(tail)) return undefined;
    const followed = new FollowedStream(sessionId, streamId, writer, Number(tail), follower);
    this.follows.add(followed);
    // Polled: the writer stores a POST stream's events without telling anyone, and a wake-up
    // would cost it a round trip per event for the rare stream that is followed.
    followed.timer = unrefTimer(setInterval(() => this.poll(followed), this.followBounds.pollMs));
    return { stop: () => this.unfollow(followed) };
  }

  async close(): Promise<void> {
    if (this.renewer) clearInterval(this.renewer);
    this.stopReady?.();
    for (const followed of [...this.follows]) this.unfollow(followed);
    const locals = [...this.readers.values()];
    for (const local of locals) this.evictLocal(local);
    // Where each stream stopped, for its client's next GET on another instance (one without Last-Event-ID too).
    await Promise.all(locals.map((local) => this.release(local).catch((error: unknown) => this.onError(error, 'release a stream'))));
  }

  /** Lets go of a stream still this instance's, storing its cursors. */
  private async release(local: LocalReader): Promise<void> {
    await this.link.send([
      'EVAL',
      RELEASE_STREAM,
      '2',
      this.keys.owner(local.sessionId),
      this.keys.session(local.sessionId),
      this.instanceId,
      local.cursor,
      local.broadcasts,
    ]);
  }

  private enqueue(task: () => Promise<void>): void {
    this.pump = this.pump.then(task).catch((error: unknown) => this.onError(error, 'read the broadcast log'));
  }

  /** The id of the broadcast log's newest entry ('0-0' while it has none). */
  private async broadcastTail(): Promise<string> {
    const last = (await this.link.send(['XREVRANGE', this.keys.broadcasts, '+', '-', 'COUNT', '1'])) as Array<[string, string[]]>;
    return last.length === 0 ? '0-0' : last[0][0];
  }

  /** Up to BROADCAST_BATCH entries of the broadcast log after `after`, oldest first. */
  private async broadcastsAfter(after: string): Promise<BroadcastEntry[]> {
    const entries = (await this.link.send(['XRANGE', this.keys.broadcasts, `(${after}`, '+', 'COUNT', String(BROADCAST_BATCH)])) as Array<[string, string[]]>;
    return entries.map(([id, fields]) => ({ id, broadcast: fields[0] === 'u' ? { uri: fields[1] } : { list: fields[1] as ChangedList } }));
  }

  /** The instance's fan-out: what the log holds after its cursor, to every caught-up stream held here. */
  private async readBroadcasts(): Promise<void> {
    for (let round = 0; round < 64; round += 1) {
      const live = [...this.readers.values()].filter((local) => local.live && !local.closed);
      // Before its first read (Redis was not there at start-up): from the stream furthest behind.
      const from = this.broadcastCursor ?? live.map((local) => local.broadcasts).sort(compareStreamIds)[0];
      if (from === undefined) {
        this.broadcastCursor = await this.broadcastTail();
        return;
      }
      const entries = await this.broadcastsAfter(from);
      if (entries.length === 0) return;
      await this.fanOut(entries, live);
      this.broadcastCursor = entries[entries.length - 1].id;
      if (entries.length < BROADCAST_BATCH) return;
    }
  }

  /** A stream that just attached: the broadcasts after its own cursor, then the live fan-out serves it. */
  private async catchUp(local: LocalReader): Promise<void> {
    for (let round = 0; round < 64 && !local.closed; round += 1) {
      const entries = await this.broadcastsAfter(local.broadcasts);
      if (entries.length > 0) await this.fanOut(entries, [local]);
      if (entries.length < BROADCAST_BATCH) break;
    }
    local.live = true;
  }

  /**
   * Hands each entry to each stream whose cursor is before it, if its session hears it (a list
   * it announces, a resource it subscribed to); all or nothing, so what failed is read again
   * from the same cursors.
   */
  private async fanOut(entries: readonly BroadcastEntry[], locals: readonly LocalReader[]): Promise<void> {
    const asks: Array<[LocalReader, string]> = [];
    for (const local of locals) {
      const uris = new Set<string>();
      for (const entry of entries) if ('uri' in entry.broadcast && compareStreamIds(entry.id, local.broadcasts) > 0) uris.add(entry.broadcast.uri);
      for (const uri of uris) asks.push([local, uri]);
    }
    const answers = await Promise.all(
      asks.map(([local, uri]) =>
        this.link.send(['EVAL', SUBSCRIBED_SINCE, '2', this.keys.subscriptions(local.sessionId), this.keys.subscribedSince(local.sessionId), uri]),
      ),
    );
    // A session hears the updates raised after it subscribed: one raised before is not re-heard on a resumption.
    const since = new Map<string, string>();
    asks.forEach(([local, uri], i) => typeof answers[i] === 'string' && since.set(`${local.sessionId} ${uri}`, answers[i]));
    for (const local of locals) {
      if (local.closed) continue;
      const events: RoutedEvent[] = [];
      for (const entry of entries) {
        if (compareStreamIds(entry.id, local.broadcasts) <= 0) continue;
        local.broadcasts = entry.id;
        const { broadcast } = entry;
        const from = 'uri' in broadcast ? since.get(`${local.sessionId} ${broadcast.uri}`) : undefined;
        const hears = 'list' in broadcast ? local.reader.announces(broadcast.list) : from !== undefined && compareStreamIds(entry.id, from) > 0;
        if (hears) events.push({ position: { log: local.cursor, broadcasts: entry.id }, data: broadcastText(broadcast) });
      }
      if (events.length > 0) local.reader.events(events);
    }
  }

  private onInbox(message: InboxMessage): void {
    const local = this.readers.get(message.s);
    if (message.t === 'wake') {
      if (local) this.drain(local);
    } else if (message.t === 'evict') {
      if (local) this.evictLocal(local);
    } else if (message.t === 'end') {
      if (message.i !== this.instanceId) this.handlers?.ended?.(message.s);
    } else if (message.t === 'fwd') {
      const delivered = this.handlers?.deliver(message.s, message.m) ?? false;
      // A cancellation goes to every instance: only a miss on the one named matters.
      if (!delivered && 'id' in message.m) this.onWaiterGone(message.s, message.m);
    }
  }

  private evictLocal(local: LocalReader): void {
    local.closed = true;
    if (this.readers.get(local.sessionId) === local) this.readers.delete(local.sessionId);
    local.reader.evicted();
  }

  /** Reads the log from the reader's cursor until nothing is left; one read at a time per reader. */
  private drain(local: LocalReader): void {
    if (local.closed) return;
    if (local.reading) {
      local.again = true;
      return;
    }
    local.reading = true;
    void (async () => {
      try {
        do {
          local.again = false;
          const key = this.keys.events(local.sessionId, 'g');
          let entries = await this.events.range(key, local.cursor);
          // The cursor's entry was trimmed away (a reader far behind): go on from what is left.
          if (entries === undefined) entries = (await this.events.range(key, '0-0')) ?? [];
          if (local.closed || entries.length === 0) continue;
          local.reader.events(entries.map(([id, data]) => ({ position: { log: id, broadcasts: local.broadcasts }, data })));
          local.cursor = entries[entries.length - 1][0];
          await this.link.send(['EVAL', SET_CURSORS, '1', this.keys.session(local.sessionId), local.cursor, local.broadcasts]);
        } while (local.again && !local.closed);
      } catch (error) {
        this.onError(error, 'read a session stream');
      } finally {
        local.reading = false;
      }
    })();
  }

  private unfollow(followed: FollowedStream): void {
    followed.closed = true;
    if (followed.timer) clearInterval(followed.timer);
    this.follows.delete(followed);
  }

  /**
   * Reads a followed stream's new events, and whether its writer is still there. The writer is
   * alive while its inbox has a subscriber: a process that dies (killed, crashed) loses its
   * connections, so Redis drops the subscription at once, with no lease to wait out; a writer
   * merely reconnecting to Redis is back within a second, so only an inbox silent for
   * `graceMs` counts. A writer gone before the answer, or one that marked the request lost:
   * the stream's fallback answer (a -32603 error the writer stored when it opened the stream) is
   * appended to it, for this follower and any later resumption, and delivered last.
   */
  private poll(followed: FollowedStream): void {
    if (followed.reading || followed.closed) return;
    followed.reading = true;
    void (async () => {
      try {
        const { sessionId, streamId } = followed;
        const [gone, meta] = await Promise.all([this.readFollowed(followed), this.events.meta(sessionId, streamId)]);
        followed.failing = false;
        if (followed.closed) return;
        if (gone) return this.endFollow(followed);
        // The run that holds the request: the writer's inbox lives again as soon as it restarts
        // under the same id, and would be waited on forever. A stream of an older version: its inbox.
        const channel = meta.run === undefined ? this.keys.inbox(followed.writer) : this.keys.run(meta.run);
        const listeners = (await this.link.send(['PUBSUB', 'NUMSUB', channel])) as [string, number];
        if (followed.closed) return;
        const alive = Number(listeners[1]) > 0;
        if (alive) followed.silentSince = undefined;
        else followed.silentSince ??= Date.now();
        const dead = !alive && Date.now() - followed.silentSince! >= this.followBounds.graceMs;
        // Cancelled by its client: no answer is due, and nothing more comes.
        if (meta.ended === 'cancelled') {
          await this.readFollowed(followed);
          return this.endFollow(followed);
        }
        // Lost where it ran (the session's copy there closed: a shutdown), or its writer is gone:
        // whatever it stored before, then its fallback.
        if (meta.ended !== 'lost' && !dead) return;
        if ((await this.readFollowed(followed)) || followed.closed) return this.endFollow(followed);
        if (meta.fallback === undefined) return this.endFollow(followed);
        const data = meta.fallback;
        const id = await this.events
          .appendRaw(sessionId, streamId, `0-${followed.cursor + 1}`, data, Buffer.byteLength(data) + 40, true)
          .catch(() => undefined);
        // Another follower stored it first (same id): read it from the stream like any event.
        if (id === undefined) await this.readFollowed(followed);
        else if (!followed.closed) {
          followed.cursor += 1;
          followed.follower.events([{ id: `${streamId}_${followed.cursor}`, data }]);
        }
        if (!followed.closed) this.endFollow(followed);
      } catch (error) {
        // Polled four times a second: while Redis is away, one line per stream, not one per poll.
        if (!followed.failing) this.onError(error, 'follow a stream');
        followed.failing = true;
      } finally {
        followed.reading = false;
      }
    })();
  }

  /** Delivers a followed stream's events after its cursor; resolves true when the stream is gone (session ended or expired). */
  private async readFollowed(followed: FollowedStream): Promise<boolean> {
    const key = this.keys.events(followed.sessionId, followed.streamId);
    let entries = await this.events.range(key, `0-${followed.cursor}`);
    // The cursor's entry was trimmed away: go on from what is left, or end with a stream that is gone.
    if (entries === undefined) {
      entries = (await this.events.range(key, '0-0')) ?? [];
      if (entries.length === 0) return true;
    }
    const fresh: Array<{ id: string; data: string }> = [];
    for (const [id, data] of entries) {
      const n = Number(id.slice(2));
      if (!id.startsWith('0-') || n <= followed.cursor) continue;
      followed.cursor = n;
      if (data !== '') fresh.push({ id: `${followed.streamId}_${n}`, data });
    }
    if (fresh.length > 0 && !followed.closed) followed.follower.events(fresh);
    return false;
  }

  private endFollow(followed: FollowedStream): void {
    if (followed.closed) return;
    this.unfollow(followed);
    followed.follower.end();
  }

  /** Renews the leases of the streams read here, and reads them and the broadcast log (wake-ups are only hints). */
  private renewAll(): void {
    this.broadcastsChanged();
    for (const local of this.readers.values()) {
      this.link
        .send([
          'EVAL',
          RENEW_OWNER,
          '2',
          this.keys.owner(local.sessionId),
          this.keys.session(local.sessionId),
          this.instanceId,
          String(this.leaseMs),
          local.broadcasts,
        ])
        .then((renewed) => {
          if (Number(renewed) === 0) this.evictLocal(local);
          else this.drain(local);
        })
        .catch((error: unknown) => this.onError(error, 'renew a stream lease'));
    }
  }
}
