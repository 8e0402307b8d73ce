import { protocolVersionHeader } from '@mcpkit/core/transport';
import { eraOf, versionOf } from './http-era';

describe('versionOf', () => {
  it('decodes each header as protocolVersionHeader does, whatever came before', () => {
    const headers = [
      '2025-11-25',
      '2025-11-25',
      `=?base64?${Buffer.from('2026-07-28').toString('base64')}?=`,
      '=?base64?not base64!?=',
      '2025-06-18',
      ['2025-03-26', '2025-11-25'],
      undefined,
      '2025-11-25',
    ];
    for (const header of [...headers, ...headers.reverse()]) {
      const request = { 'mcp-protocol-version': header };
      expect(versionOf(request)).toBe(protocolVersionHeader(request));
    }
  });
});

describe('eraOf', () => {
  it('gives the modern era its version and the handshake era everything else', () => {
    expect(eraOf('2026-07-28').sessions).toBe(false);
    expect(eraOf('2025-11-25').sessions).toBe(true);
    expect(eraOf(undefined).sessions).toBe(true);
  });
});
