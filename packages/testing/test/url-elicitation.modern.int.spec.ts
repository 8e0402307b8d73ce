import { createApp, Tool, type RequestContext } from '@mcpkit/core';
import pino from 'pino';
import { firstText, RpcError, TestClient } from '../src';

// URL-mode elicitation on 2026-07-28 (issue #11, item 10): a question of an input-required round,
// `{ mode: "url", message, url }`, asked only of clients that declare `elicitation.url`.
class SignIn {
  static checked = 0;

  @Tool({ input: null })
  async login(_input: unknown, ctx: RequestContext) {
    const answer = await ctx.elicitUrl('Sign in to continue', 'https://auth.example.com/start', { key: 'sign-in' });
    // The retry is the moment to check the out-of-band step; there is nothing to announce.
    if (answer.action === 'accept') {
      SignIn.checked += 1;
      ctx.completeElicitation(answer.elicitationId);
    }
    return `${answer.action} ${answer.elicitationId}`;
  }

  @Tool({ input: null })
  async numbered(_input: unknown, ctx: RequestContext) {
    const first = await ctx.elicitUrl('First', 'https://a.example.com/');
    const second = await ctx.elicitUrl('Second', 'https://b.example.com/');
    return `${first.elicitationId} ${second.elicitationId}`;
  }
}

const app = () => createApp({ name: 'sign-in', version: '1.0.0', providers: [SignIn], logger: pino({ level: 'silent' }) });
const URL_CAPABLE = { elicitation: { form: {}, url: {} } };

describe('URL elicitation on 2026-07-28', () => {
  it('asks in an input-required round and runs again with the answer', async () => {
    const asked: Array<Record<string, unknown>> = [];
    const client = await TestClient.connect(app(), {
      era: 'modern',
      capabilities: URL_CAPABLE,
      handlers: { 'elicitation/create': (params) => (asked.push(params), { action: 'accept' }) },
    });
    const before = SignIn.checked;
    expect(firstText(await client.callTool('login'))).toBe('accept sign-in');
    expect(client.rounds).toBe(1);
    // The 2026 shape: no elicitationId on the wire.
    expect(asked).toEqual([{ mode: 'url', message: 'Sign in to continue', url: 'https://auth.example.com/start' }]);
    expect(client.messages.find((message) => message.inputKey === 'sign-in')).toMatchObject({ method: 'elicitation/create' });
    // completeElicitation is a no-op there: no notification, no stream.
    expect(client.notifications('notifications/elicitation/complete')).toEqual([]);
    expect(SignIn.checked).toBe(before + 1);
  });

  it('passes a decline through, and numbers unnamed questions like ctx.elicit', async () => {
    const declining = await TestClient.connect(app(), {
      era: 'modern',
      capabilities: URL_CAPABLE,
      handlers: { 'elicitation/create': () => ({ action: 'decline' }) },
    });
    expect(firstText(await declining.callTool('login'))).toBe('decline sign-in');
    const accepting = await TestClient.connect(app(), {
      era: 'modern',
      capabilities: URL_CAPABLE,
      handlers: { 'elicitation/create': () => ({ action: 'accept' }) },
    });
    expect(firstText(await accepting.callTool('numbered'))).toBe('elicitation-1 elicitation-2');
    expect(accepting.rounds).toBe(2);
  });

  it('answers a client without elicitation.url with -32021 naming the nested capability', async () => {
    const formOnly = await TestClient.connect(app(), {
      era: 'modern',
      capabilities: { elicitation: { form: {} } },
      handlers: { 'elicitation/create': () => ({ action: 'accept' }) },
    });
    const failure = await formOnly.callTool('login').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RpcError);
    expect(failure).toMatchObject({
      code: -32021,
      message: 'Missing required client capability: elicitation.url',
      data: { requiredCapabilities: { elicitation: { url: {} } } },
    });
    expect(formOnly.messages.filter((message) => message.inputKey !== undefined)).toEqual([]);
  });
});
