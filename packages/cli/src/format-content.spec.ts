import type { ContentBlock } from '@mcpkit/core';
import { formatContent } from './format-content';

describe('formatContent', () => {
  // An mcpkit server never sends a kind it does not know (it refuses the result), but another
  // server, or a newer revision, may.
  it('prints a kind it does not know as its JSON', () => {
    expect(formatContent({ type: 'hologram', uri: 'x://h' } as unknown as ContentBlock)).toBe('{"type":"hologram","uri":"x://h"}');
  });
});
