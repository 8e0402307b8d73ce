import * as transport from '../transport';
import { InvalidParamsError } from '../errors/mcp-error';

// The era names before the one vocabulary (issue #27) still work for one release: the
// constants are the new ones, and 'handshake' given as an era is the legacy era, with one
// deprecation warning.
describe('deprecated era names', () => {
  let warn: jest.SpyInstance;
  beforeEach(() => {
    warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  it('the old constants of @mcpkit/core/transport are the new ones', () => {
    expect(transport.handshakeHttp).toBe(transport.legacyHttp);
    expect(transport.handshakeHttpStatus).toBe(transport.legacyHttpStatus);
    expect(transport.isHandshakeVersion).toBe(transport.isLegacyVersion);
    expect(transport.statelessHttp).toBe(transport.modernHttp);
    expect(transport.HTTP_ERAS).toEqual([transport.modernHttp, transport.legacyHttp]);
  });

  it("classify and errorResponse take 'handshake' as the legacy era and warn once per process", () => {
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const given: transport.DeprecatedEraName = 'handshake';
    expect(transport.classify(message, given).era).toBe('legacy');
    expect(transport.classify(message).era).toBe('legacy');
    const error = new InvalidParamsError('no');
    expect(transport.errorResponse(1, error, given)).toEqual(transport.errorResponse(1, error, 'legacy'));
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining("use 'legacy'"),
      expect.objectContaining({ type: 'DeprecationWarning', code: 'MCPKIT_DEP_ERA_HANDSHAKE' }),
    );
  });

  it.each(['bogus', 'Legacy', 'stateless', 'modren'])('classify and errorResponse refuse the unknown era %j with a TypeError naming the eras', (era) => {
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const allowed = `the era must be "legacy" or "modern" (got "${era}")`;
    expect(() => transport.classify(message, era as never)).toThrow(
      new TypeError(`${allowed}; "handshake", the legacy era's old name, is still accepted, deprecated`),
    );
    expect(() => transport.errorResponse(1, new InvalidParamsError('no'), era as never)).toThrow(allowed);
  });

  it('frames carry only the new names', () => {
    expect(transport.classify({ jsonrpc: '2.0', method: 'notifications/initialized' }).era).toBe('legacy');
    expect(
      transport.classify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } }).era,
    ).toBe('modern');
  });
});
