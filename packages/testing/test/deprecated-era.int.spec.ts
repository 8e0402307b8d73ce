import { createApp, Tool, type RequestContext } from '@mcpkit/core';
import { firstText, TestClient } from '../src';

class Surface {
  @Tool({ input: null })
  where(_input: unknown, ctx: RequestContext) {
    return `${ctx.client.protocolVersion} ${ctx.session === undefined ? 'no session' : 'session'}`;
  }
}

// `era: 'handshake'`, the legacy era's name before issue #27, still works for one release.
describe('TestClient era: handshake (deprecated)', () => {
  let warn: jest.SpyInstance;
  beforeEach(() => {
    warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  it('speaks the legacy era, as era: legacy does, and warns once per process', async () => {
    const app = createApp({ name: 'deprecated-era', version: '1.0.0', providers: [Surface] });
    const old = await TestClient.connect(app, { era: 'handshake' });
    const current = await TestClient.connect(app, { era: 'legacy' });
    expect(old.era).toBe('legacy');
    expect(firstText(await old.callTool('where'))).toBe(firstText(await current.callTool('where')));
    expect(firstText(await old.callTool('where'))).toBe('2025-11-25 session');
    await TestClient.connect(app, { era: 'handshake' });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("use 'legacy'"), expect.objectContaining({ type: 'DeprecationWarning' }));
    old.close();
    current.close();
  });

  it.each(['bogus', 'modren', 'stateless'])('refuses the unknown era %j, naming the eras', async (era) => {
    const app = createApp({ name: 'unknown-era', version: '1.0.0', providers: [Surface] });
    await expect(TestClient.connect(app, { era: era as never })).rejects.toThrow(
      new TypeError(
        `TestClient option "era" must be "legacy" or "modern" (got "${era}"); "handshake", the legacy era's old name, is still accepted, deprecated`,
      ),
    );
  });
});
