import pino from 'pino';
import { createApp } from '@mcpkit/core';
import type { StoredEvent } from './event-store';
import { EventStream, type EventSink } from './event-stream';
import { MemorySessionRouter, MemoryRouterHub } from '../test/support/memory-session-router';
import { RoutedSessions, writerOf } from './routed-sessions';
import { LiveSession } from './session-registry';
import { MemorySessionStore } from './session-store';
import type { FollowHandle, StreamFollower } from './stream-follower';

const logger = pino({ level: 'silent' });
const app = createApp({ name: 'routed', version: '1', providers: [], logger });
const limits = { maxMessageBytes: 1 << 20, maxBatchBytes: 1 << 20 };
const STREAM = 'a-0123456789ab-s1';
const ANSWER = JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} });
const PROGRESS = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 1 } });

/** A router of instance `b` whose `follow` the test drives by hand. */
class FollowingRouter extends MemorySessionRouter {
  follower: StreamFollower | undefined;
  stopped = 0;
  follows = 0;
  /** Events the router delivers before it hands over the handle. */
  early: StoredEvent[] = [];
  full = false;

  constructor() {
    super('b', new MemoryRouterHub());
  }

  follow(_sessionId: string, _streamId: string, _writer: string, _after: string, follower: StreamFollower): Promise<FollowHandle | undefined> {
    this.follows += 1;
    if (this.full) return Promise.resolve(undefined);
    this.follower = follower;
    if (this.early.length > 0) follower.events(this.early);
    return Promise.resolve({ stop: () => void (this.stopped += 1) });
  }
}

function setUp(maxBufferedBytes = 1 << 20) {
  const router = new FollowingRouter();
  const routed = new RoutedSessions({
    app,
    router,
    limits,
    retryMs: 1_000,
    keepAliveMs: 0,
    maxBufferedBytes,
    logger,
    sessionStore: new MemorySessionStore(),
    lookup: () => undefined,
    ended: () => undefined,
  });
  const session = new LiveSession(
    'sid',
    app.connect({ kind: 'http' }, { sessionId: 'sid' }),
    { priming: false, retryMs: 1_000, keepAliveMs: 0, limits, maxBufferedBytes },
    () => undefined,
  );
  const written: string[] = [];
  const sink: EventSink & { destroyed: boolean; ended: boolean; bufferedBytes: number } = {
    destroyed: false,
    ended: false,
    bufferedBytes: 0,
    write: (text) => void written.push(text),
    end: () => void (sink.ended = true),
    destroy: () => void (sink.destroyed = true),
  };
  const body = new EventStream();
  body.pipe(sink);
  return { router, routed, session, body, sink, written };
}

describe('RoutedSessions.follow', () => {
  it('writes what was missed, then what the router delivered early, then the rest; ends after the answer and lets the session go', async () => {
    const { router, routed, session, body, sink, written } = setUp();
    router.early = [{ id: `${STREAM}_3`, data: PROGRESS }];
    expect(await routed.follow(session, body, STREAM, `${STREAM}_1`, [{ id: `${STREAM}_2`, data: PROGRESS }])).toBe(true);
    expect(session.isBusy()).toBe(true);
    router.follower!.events([{ id: `${STREAM}_4`, data: ANSWER }]);
    expect(written.map((text) => /^id: (\S+)/.exec(text)?.[1])).toEqual([`${STREAM}_2`, `${STREAM}_3`, `${STREAM}_4`]);
    expect(sink.ended).toBe(true);
    expect(router.stopped).toBe(1);
    expect(session.isBusy()).toBe(false);
    await routed.close();
  });

  it('does not follow a stream that was answered already, its own stream, or when the router has no slot', async () => {
    const { router, routed, session, body } = setUp();
    expect(await routed.follow(session, body, STREAM, `${STREAM}_1`, [{ id: `${STREAM}_2`, data: ANSWER }])).toBe(false);
    expect(await routed.follow(session, body, 'b-0123456789ab-s1', 'b-0123456789ab-s1_1', [])).toBe(false);
    expect(await routed.follow(session, body, 's1', 's1_1', [])).toBe(false);
    expect(router.follows).toBe(0);
    router.full = true;
    expect(await routed.follow(session, body, STREAM, `${STREAM}_1`, [])).toBe(false);
    expect(router.follows).toBe(1);
    expect(session.isBusy()).toBe(false);
    await routed.close();
  });

  it('drops the connection of a reader that does not read (maxBufferedBytes), and stops following', async () => {
    const { router, routed, session, body, sink } = setUp(1_000);
    expect(await routed.follow(session, body, STREAM, `${STREAM}_1`, [])).toBe(true);
    sink.bufferedBytes = 1_001;
    router.follower!.events([{ id: `${STREAM}_2`, data: PROGRESS }]);
    expect(sink.destroyed).toBe(true);
    expect(router.stopped).toBe(1);
    expect(session.isBusy()).toBe(false);
    await routed.close();
  });

  it('ends the response when the router says nothing more comes, and on shutdown', async () => {
    const first = setUp();
    expect(await first.routed.follow(first.session, first.body, STREAM, `${STREAM}_1`, [])).toBe(true);
    first.router.follower!.end();
    expect(first.sink.ended).toBe(true);
    await first.routed.close();
    const second = setUp();
    expect(await second.routed.follow(second.session, second.body, STREAM, `${STREAM}_1`, [])).toBe(true);
    await second.routed.close();
    expect(second.sink.ended).toBe(true);
    expect(second.router.stopped).toBe(1);
  });

  it('reads the writer from a routed POST stream name only', () => {
    expect(writerOf('node-1-0123456789ab-s12')).toBe('node-1');
    expect(writerOf('node-1-0123456789ab-g1')).toBeUndefined();
    expect(writerOf('s3')).toBeUndefined();
  });
});
