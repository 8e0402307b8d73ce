import type { JsonRpcMessage } from '@mcpkit/core';
import type { ChangedList, ForwardTarget, MissedBroadcasts, RouterAttachment, RouterHandlers, RouterReader, SessionRouter } from '@mcpkit/http';
import type { FollowHandle, StreamFollower } from '@mcpkit/http';
import type { Keys } from './keys';
import type { RedisLink } from './redis-link';
import type { RedisEventStore } from './redis-event-store';
import { RELEASE_OWNER } from './scripts';

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

  constructor(
    readonly sessionId: string,
    public cursor: string,
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

/** Stores the delivery cursor only on a live session: never re-creates an expired one. */
const SET_CURSOR = `if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], 'gc', ARGV[1]) end return 1`;
/**
 * Adds (ARGV[1] '1') or removes a subscription of a live session, the set living as long as the
 * record (each request slides both): nothing is written for a session that is gone.
 */
const SUBSCRIBE = `
local ttl = redis.call('PTTL', KEYS[1])
if ttl == -2 then return 0 end
if ARGV[1] == '1' then redis.call('SADD', KEYS[2], ARGV[2]) else redis.call('SREM', KEYS[2], ARGV[2]) end
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
return 1`;
/** Renews the lease only while it is still this instance's: 1 renewed, 0 taken over. */
const RENEW_OWNER = `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end return 0`;

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
 */
export class RedisSessionRouter implements SessionRouter {
  private readonly readers = new Map<string, LocalReader>();
  private readonly follows = new Set<FollowedStream>();
  private handlers: RouterHandlers | undefined = undefined;
  private renewer: NodeJS.Timeout | undefined = undefined;
  private stopReady: (() => void) | undefined = undefined;

  constructor(
    readonly instanceId: string,
    private readonly link: RedisLink,
    private readonly keys: Keys,
    private readonly events: RedisEventStore,
    private readonly leaseMs: number,
    private readonly onError: (error: unknown, what: string) => void,
    private readonly onWaiterGone: (sessionId: string, message: JsonRpcMessage) => void,
    private readonly followBounds: FollowBounds = DEFAULT_FOLLOW,
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
    await Promise.all([this.link.subscribe(this.keys.inbox(this.instanceId), onMessage), this.link.subscribe(this.routeChannel, onMessage)]);
    // Wake-ups published while the pub/sub connection was down are lost: read every log again.
    this.stopReady = this.link.onReady(() => {
      for (const local of this.readers.values()) this.drain(local);
    });
    this.renewer = setInterval(() => this.renewAll(), Math.max(50, Math.floor(this.leaseMs / 3)));
    this.renewer.unref();
  }

  start(handlers: RouterHandlers): void {
    this.handlers = handlers;
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

  async attach(sessionId: string, after: string | undefined, reader: RouterReader): Promise<RouterAttachment | undefined> {
    const key = this.keys.events(sessionId, 'g');
    let cursor: string;
    if (after !== undefined) {
      if (!/^\d+-\d+$/.test(after)) return undefined;
      // Checked now so an unknown position is refused before the stream is taken over.
      if ((await this.events.range(key, after)) === undefined) return undefined;
      cursor = after;
    } else {
      const delivered = await this.link.send(['HGET', this.keys.session(sessionId), 'gc']);
      cursor = typeof delivered === 'string' ? delivered : '0-0';
    }
    const previous = (await this.link.send(['SET', this.keys.owner(sessionId), this.instanceId, 'PX', String(this.leaseMs), 'GET'])) as string | null;
    const mine = this.readers.get(sessionId);
    if (mine) this.evictLocal(mine);
    if (typeof previous === 'string' && previous !== this.instanceId) {
      await this.link.send(['PUBLISH', this.keys.inbox(previous), JSON.stringify({ t: 'evict', s: sessionId })]);
    }
    const local = new LocalReader(sessionId, cursor, reader);
    this.readers.set(sessionId, local);
    this.drain(local);
    return {
      position: cursor,
      detach: () => {
        if (local.closed) return;
        local.closed = true;
        if (this.readers.get(sessionId) === local) this.readers.delete(sessionId);
        this.link
          .send(['EVAL', RELEASE_OWNER, '1', this.keys.owner(sessionId), this.instanceId])
          .catch((error: unknown) => this.onError(error, 'release a stream'));
      },
    };
  }

  async missedSince(sessionId: string, after: string): Promise<MissedBroadcasts> {
    if (!/^\d+-\d+$/.test(after)) return { lists: [], resources: [] };
    // Both logs take their ids from Redis's clock, so a GET-log position orders broadcasts too.
    const [entries, subscribed] = (await Promise.all([
      this.link.send(['XRANGE', this.keys.broadcasts, `(${after}`, '+']),
      this.link.send(['SMEMBERS', this.keys.subscriptions(sessionId)]),
    ])) as [Array<[string, string[]]>, string[]];
    const subscriptions = new Set(subscribed);
    const lists = new Set<ChangedList>();
    const resources = new Set<string>();
    for (const [, fields] of entries) {
      for (let i = 0; i < fields.length; i += 2) {
        if (fields[i] === 'l') lists.add(fields[i + 1] as ChangedList);
        else if (fields[i] === 'u' && subscriptions.has(fields[i + 1])) resources.add(fields[i + 1]);
      }
    }
    return { lists: [...lists], resources: [...resources] };
  }

  async forward(sessionId: string, message: JsonRpcMessage, target: ForwardTarget): Promise<boolean> {
    const channel = target === 'all' ? this.routeChannel : this.keys.inbox(target.instance);
    const receivers = Number(await this.link.send(['PUBLISH', channel, JSON.stringify({ t: 'fwd', s: sessionId, m: message })]));
    return receivers > 0;
  }

  async subscribe(sessionId: string, uri: string, on: boolean): Promise<void> {
    await this.link.send(['EVAL', SUBSCRIBE, '2', this.keys.session(sessionId), this.keys.subscriptions(sessionId), on ? '1' : '0', uri]);
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
    followed.timer = setInterval(() => this.poll(followed), this.followBounds.pollMs);
    followed.timer.unref();
    return { stop: () => this.unfollow(followed) };
  }

  async close(): Promise<void> {
    if (this.renewer) clearInterval(this.renewer);
    this.stopReady?.();
    for (const followed of [...this.follows]) this.unfollow(followed);
    for (const local of [...this.readers.values()]) this.evictLocal(local);
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
          local.cursor = entries[entries.length - 1][0];
          local.reader.events(entries.map(([id, data]) => ({ id, data })));
          await this.link.send(['EVAL', SET_CURSOR, '1', this.keys.session(local.sessionId), local.cursor]);
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
        const [gone, meta, listeners] = await Promise.all([
          this.readFollowed(followed),
          this.events.meta(sessionId, streamId),
          this.link.send(['PUBSUB', 'NUMSUB', this.keys.inbox(followed.writer)]) as Promise<[string, number]>,
        ]);
        if (followed.closed) return;
        if (gone) return this.endFollow(followed);
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
        this.onError(error, 'follow a stream');
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

  /** Renews the leases of the streams read here, and reads them (wake-ups are only hints). */
  private renewAll(): void {
    for (const local of this.readers.values()) {
      this.link
        .send(['EVAL', RENEW_OWNER, '1', this.keys.owner(local.sessionId), this.instanceId, String(this.leaseMs)])
        .then((renewed) => {
          if (Number(renewed) === 0) this.evictLocal(local);
          else this.drain(local);
        })
        .catch((error: unknown) => this.onError(error, 'renew a stream lease'));
    }
  }
}
