import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StubAuthorizationServer, type HttpServerProcess } from '@mcpkit/testing';
import { startRedisServer, type RedisServer } from '../../../packages/redis/test/support/redis-server';
import { startInstance, stopDeployment, type Deployment } from './support/notes-instances';

// The authenticated notes app scaled out (REDIS_URL) on two instances: what a caller may do a
// minute, and what it may do once, holds across both. Raw 2026-07-28 POSTs straight to each
// instance (no balancer needed: the test chooses the instance of every request).
const RESOURCE = 'http://notes.example/mcp';
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'limits', version: '1' },
};
type Answer = {
  id: number;
  result?: Record<string, unknown> & { content?: Array<{ text: string }>; isError?: boolean };
  error?: { code: number; message: string };
};

let dir: string;
let redis: RedisServer;
let as: StubAuthorizationServer;
const instances: HttpServerProcess[] = [];
let ids = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcpkit-scale-out-limits-'));
  [redis, as] = await Promise.all([startRedisServer(), StubAuthorizationServer.start()]);
  const deployment: Deployment = {
    redisUrl: redis.url,
    database: join(dir, 'notes.db'),
    secret: 'scale-out-limits-secret-0123456789abcdef',
    prefix: 'notes-limits:',
  };
  const auth = { NOTES_AUTH_ISSUER: as.issuer, NOTES_AUTH_RESOURCE: RESOURCE };
  instances.push(...(await Promise.all([startInstance(deployment, 'notes-A', undefined, auth), startInstance(deployment, 'notes-B', undefined, auth)])));
}, 30_000);

afterAll(async () => {
  await stopDeployment(instances, redis, dir);
  await as.close();
});

/** One tools/call on instance `on` (0: A, 1: B) as the bearer of `token`. */
async function call(on: number, token: string, name: string, params: Record<string, unknown> = {}): Promise<Answer> {
  const response = await fetch(instances[on].url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++ids, method: 'tools/call', params: { name, arguments: {}, ...params, _meta: META } }),
  });
  const text = await response.text();
  // An SSE answer carries its one message in a data line.
  return JSON.parse(
    text.startsWith('{')
      ? text
      : text
          .split('\n')
          .find((line) => line.startsWith('data: {'))!
          .slice(6),
  ) as Answer;
}

const writer = (sub: string) => as.mint({ aud: RESOURCE, sub, scope: 'notes:write' });
const limited = (answer: Answer) => answer.result?.isError === true && /^rate limit: retry in \d+ s$/.test(answer.result.content?.[0]?.text ?? '');
const retryAfterMs = (answer: Answer) => (answer.result?._meta as { 'io.mcpkit/rateLimit': { retryAfterMs: number } })['io.mcpkit/rateLimit'].retryAfterMs;
const note = (title: string) => ({ arguments: { title, body: 'limits' } });
// The buckets refill evenly (30 a minute: one token per 2 s) on Redis's clock, which no test can
// stop: each expectation allows for the tokens the time the test took gave back.
const REFILL_MS = 2_000;

/** Creates notes as `token` until one is refused; the refusal and when it came. */
async function exhaust(token: string): Promise<{ at: number; waitMs: number }> {
  for (let i = 0; i < 60; i++) {
    const answer = await call(i % 2, token, 'create_note', note(`x${i}`));
    if (limited(answer)) return { at: performance.now(), waitMs: retryAfterMs(answer) };
  }
  throw new Error('create_note was never refused');
}

describe('the authenticated notes app on two instances sharing Redis', () => {
  it('counts create_note 30 a minute per subject across both instances, not 30 on each', async () => {
    const token = await writer('ann');
    const started = performance.now();
    let served = 0;
    for (let i = 0; i < 60; i++) if (!limited(await call(i % 2, token, 'create_note', note(`n${i}`)))) served += 1;
    const refilled = Math.floor((performance.now() - started) / REFILL_MS) + 1;
    // 60 on two instances that each counted their own; 30 (and what the time gave back) shared.
    expect(served).toBeGreaterThanOrEqual(30);
    expect(served).toBeLessThanOrEqual(30 + refilled);
    // Another subject has its own bucket.
    expect(limited(await call(1, await writer('cy'), 'create_note', note('cy')))).toBe(false);
  });

  it('counts draft_note in the same bucket as create_note, once per draft however many rounds and instances, and completes a draft once', async () => {
    const token = await writer('bo');
    // An empty bucket refuses a draft too (were a token back meanwhile, empty it again).
    let refused = false;
    for (let attempt = 0; attempt < 3 && !refused; attempt++) {
      const { at, waitMs } = await exhaust(token);
      const draft = await call(attempt % 2, token, 'draft_note');
      if (performance.now() - at < waitMs) {
        expect(limited(draft)).toBe(true);
        refused = true;
      }
    }
    expect(refused).toBe(true);

    // One token back: the draft's first round takes it, its later rounds (on either instance) none.
    const { waitMs } = await exhaust(token);
    await new Promise((resolve) => setTimeout(resolve, waitMs + 50));
    const started = performance.now();
    const first = await call(0, token, 'draft_note');
    expect(first.result).toMatchObject({ resultType: 'input_required' });
    const second = await call(1, token, 'draft_note', {
      requestState: first.result!.requestState,
      inputResponses: { draft: { action: 'accept', content: { title: 'Drafted', body: 'limits' } } },
    });
    expect(second.result).toMatchObject({ resultType: 'input_required' });
    const final = { requestState: second.result!.requestState, inputResponses: { confirm: { action: 'accept', content: { save: true } } } };
    expect((await call(0, token, 'draft_note', final)).result).toMatchObject({
      resultType: 'complete',
      content: [{ text: expect.stringMatching(/^Saved #\d+ Drafted\.$/) }],
    });
    // Replayed on the other instance: refused, not a second note.
    expect((await call(1, token, 'draft_note', final)).error).toMatchObject({ code: -32602, message: expect.stringContaining('requestState already used') });
    // The draft took the token: nothing is left until the next one is back.
    const after = await call(1, token, 'create_note', note('one too many'));
    if (performance.now() - started < REFILL_MS - 100) expect(limited(after)).toBe(true);
  });
});
