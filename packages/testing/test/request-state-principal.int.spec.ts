import { createApp, Tool, type AuthInfo, type RequestContext } from '@mcpkit/core';
import pino from 'pino';

// Issue #14, A15/A16 (auth.md §5 case 17): a 2026-07-28 requestState answers only the caller it
// was issued to; replayed by another subject it is -32602, as a forged one.
class Confirm {
  @Tool({ input: null })
  async wipe(_input: unknown, ctx: RequestContext) {
    const answer = await ctx.elicit('Really?', { type: 'object', properties: { ok: { type: 'boolean' } } });
    return answer.action === 'accept' ? `wiped for ${ctx.auth?.subject ?? 'nobody'}` : 'kept';
  }
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
};

describe('requestState on 2026-07-28', () => {
  const app = createApp({ name: 'confirm', version: '1', providers: [Confirm], logger: pino({ level: 'silent' }) });
  const call = (auth: AuthInfo | undefined, extra: Record<string, unknown> = {}) =>
    app
      .connect(auth ? { kind: 'memory', auth } : { kind: 'memory' })
      .receive({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'wipe', arguments: {}, _meta: META, ...extra } }) as unknown as Promise<
      Record<string, Record<string, unknown>>
    >;
  const ann: AuthInfo = { subject: 'ann', issuer: 'https://as', scopes: [] };
  const bo: AuthInfo = { subject: 'bo', issuer: 'https://as', scopes: [] };

  async function firstRound(auth: AuthInfo | undefined): Promise<Record<string, unknown>> {
    const round = (await call(auth)).result;
    expect(round.resultType).toBe('input_required');
    const [key] = Object.keys(round.inputRequests as object);
    return { requestState: round.requestState, inputResponses: { [key]: { action: 'accept', content: { ok: true } } } };
  }

  it('completes the retry of the caller it was issued to', async () => {
    const retry = await firstRound(ann);
    expect((await call(ann, retry)).result).toMatchObject({ content: [{ text: 'wiped for ann' }] });
  });

  it('refuses it replayed by another subject, or anonymously (A15, A16)', async () => {
    const retry = await firstRound(ann);
    expect((await call(bo, retry)).error).toMatchObject({ code: -32602, message: 'Invalid requestState: send the request again without it' });
    expect((await call(undefined, retry)).error).toMatchObject({ code: -32602 });
  });

  it('keeps anonymous rounds working as before', async () => {
    const retry = await firstRound(undefined);
    expect((await call(undefined, retry)).result).toMatchObject({ content: [{ text: 'wiped for nobody' }] });
  });
});
