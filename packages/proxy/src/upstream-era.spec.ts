import { upstreamEra } from './upstream';

describe('upstreamEra', () => {
  it('speaks the client’s own choice to a stdio child and an HTTP remote alike, and what client.era says to either', () => {
    expect(upstreamEra({ command: 'node' }, {})).toBe('auto');
    expect(upstreamEra({ command: 'node' }, { client: { era: 'legacy' } })).toBe('legacy');
    expect(upstreamEra({ url: 'http://127.0.0.1:1/mcp' }, {})).toBe('auto');
    expect(upstreamEra({ command: 'node' }, { client: { era: 'modern' } })).toBe('modern');
    expect(upstreamEra({ command: 'node' }, { client: { era: 'auto' } })).toBe('auto');
    expect(upstreamEra({ url: 'http://127.0.0.1:1/mcp' }, { client: { era: 'legacy' } })).toBe('legacy');
  });
});
