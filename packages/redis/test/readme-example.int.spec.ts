import { startInstance } from '../../../docs/examples/redis.example';
import { initialize, rpc } from './support/http-client';
import { startRedisServer, type RedisServer } from './support/redis-server';

// The README's example, as written: two instances of it on one Redis serve one session.
let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
});

it('README example: a session made on one instance is served by the other', async () => {
  const one = await startInstance(redis.url, 0);
  const two = await startInstance(redis.url, 0);
  try {
    const session = await initialize(one.url);
    const answer = await rpc(two.url, session, { id: 1, method: 'tools/call', params: { name: 'now', arguments: {} } });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ result: { content: [{ type: 'text', text: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }] } });
  } finally {
    await one.close();
    await two.close();
  }
});
