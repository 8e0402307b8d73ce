import { serveHttp } from '../src';
import { fixtureApp, openSession, post } from './fixture-app';

describe('load', () => {
  it('200 concurrent sessions × 50 calls with the same ids: nothing lost, duplicated or crossed', async () => {
    const server = await serveHttp(fixtureApp(), { port: 0 });
    try {
      const sessions = await Promise.all(Array.from({ length: 200 }, () => openSession(server.url)));
      const failures: string[] = [];
      await Promise.all(
        sessions.map(async (session, s) => {
          for (let batch = 0; batch < 5; batch++) {
            // Ten in flight per session at a time, ids 1…50 in every session.
            await Promise.all(
              Array.from({ length: 10 }, async (_, k) => {
                const id = batch * 10 + k + 1;
                const text = `s${s}-r${id}`;
                const response = await post(server.url, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text } } }, { 'mcp-session-id': session });
                const body = (await response.json()) as { id: number; result?: { content: Array<{ text: string }> } };
                if (body.id !== id || body.result?.content[0].text !== `${text}|session`) failures.push(`${text}: ${JSON.stringify(body)}`);
              }),
            );
          }
        }),
      );
      expect(failures).toEqual([]);
    } finally {
      await server.close();
    }
  }, 120_000);
});
