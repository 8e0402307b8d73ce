// pnpm bench:scale's client against a real mcpkit HTTP endpoint (one per suite): sessions, GET
// streams and 2026-07-28 listens that count every update, and what it does when one goes wrong.
import { createApp, Resource, Tool } from '@mcpkit/core';
import { serveHttp } from '@mcpkit/fastify';
import { IsString } from 'class-validator';
import { LeanSessions, Streams } from '../src/scale/lean-client';

const URI = 'bench://counter';

class EchoInput {
  @IsString()
  text: string;
}

class Surface {
  @Tool({ description: 'Returns the text it was given' })
  echo(input: EchoInput): string {
    return input.text;
  }

  @Resource({ uri: URI, mimeType: 'text/plain' })
  counter(): string {
    return '0';
  }

  @Resource({ uri: 'bench://other', mimeType: 'text/plain' })
  other(): string {
    return '0';
  }
}

describe('the bench:scale client', () => {
  const app = createApp({ name: 'scale-spec', version: '1.0.0', providers: [Surface], subscriptions: true });
  let server: Awaited<ReturnType<typeof serveHttp>>;
  let url: string;

  beforeAll(async () => {
    server = await serveHttp(app, { port: 0 });
    url = server.url;
  });
  afterAll(() => server.close());

  it('opens distinct live sessions, and every GET stream and listen hears each update once', async () => {
    const sessions = new LeanSessions(url);
    const ids = await sessions.openMany(5);
    expect(new Set(ids).size).toBe(5);
    await sessions.echo(ids[4], 'still here');
    const streams = new Streams(url, URI);
    for (const id of ids) await sessions.subscribe(id, URI);
    for (const id of ids.slice(0, 3)) await streams.get(id);
    await streams.listen(1);
    await streams.listen(2);
    expect(streams.size).toBe(5);
    try {
      // Another URI's update counts for no one.
      app.resourceUpdated('bench://other');
      for (const round of [1, 2]) {
        const delivered = streams.delivered(round, 5_000);
        app.resourceUpdated(URI);
        await expect(delivered).resolves.toEqual(expect.any(Number));
      }
    } finally {
      streams.close();
      sessions.close();
    }
  });

  it('says how many streams heard an update when some did not in time', async () => {
    const sessions = new LeanSessions(url);
    const [subscribed, idle] = await sessions.openMany(2);
    await sessions.subscribe(subscribed, URI);
    const streams = new Streams(url, URI);
    await streams.get(subscribed);
    await streams.get(idle);
    try {
      const delivered = streams.delivered(1, 300);
      app.resourceUpdated(URI);
      await expect(delivered).rejects.toThrow('1 of 2 streams heard update 1 within 300 ms');
    } finally {
      streams.close();
      sessions.close();
    }
  });

  it('fails on a stream or a call the server refuses', async () => {
    const sessions = new LeanSessions(url);
    const streams = new Streams(url, URI);
    await expect(streams.get('no-such-session')).rejects.toThrow('GET stream answered 404');
    await expect(sessions.echo('no-such-session', 'x')).rejects.toThrow('echo answered 404');
    await expect(sessions.subscribe('no-such-session', URI)).rejects.toThrow('resources/subscribe answered 404');
    sessions.close();
  });
});
