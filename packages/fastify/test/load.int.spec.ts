import { Agent, request } from 'node:http';
import { serveHttp } from '../src';
import { ACCEPT_BOTH, fixtureApp, openSession } from './fixture-app';

// A pool of sockets, as a client or a balancer in front would keep: the point here is that
// concurrent sessions reusing the same ids never cross. (Floods of raw connections are the
// hostile suite's business; 2 000 simultaneous connects once saw a reset on a busy CI machine.)
const agent = new Agent({ keepAlive: true, maxSockets: 100 });

function call(url: string, session: string, body: unknown): Promise<{ id: number; result?: { content: Array<{ text: string }> } }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, 'mcp-session-id': session } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve(JSON.parse(text)));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

afterAll(() => agent.destroy());

describe('load', () => {
  it('100 concurrent sessions × 30 calls with the same ids: nothing lost, duplicated or crossed', async () => {
    const server = await serveHttp(fixtureApp(), { port: 0 });
    try {
      const sessions = await Promise.all(Array.from({ length: 100 }, () => openSession(server.url)));
      const failures: string[] = [];
      await Promise.all(
        sessions.map(async (session, s) => {
          for (let batch = 0; batch < 3; batch++) {
            // Ten in flight per session at a time (1 000 at once, over 100 sockets), ids 1…30 in every session.
            await Promise.all(
              Array.from({ length: 10 }, async (_, k) => {
                const id = batch * 10 + k + 1;
                const text = `s${s}-r${id}`;
                const body = await call(server.url, session, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text } } });
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
