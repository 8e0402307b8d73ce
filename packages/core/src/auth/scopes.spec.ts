import { effectiveScopes } from './scopes';

describe('effectiveScopes', () => {
  it('adds implied scopes transitively (A11)', () => {
    const implied = { admin: ['files'], files: ['files:read', 'files:write'] };
    expect([...effectiveScopes(['admin'], implied)].sort()).toEqual(['admin', 'files', 'files:read', 'files:write']);
  });

  it('survives cycles and keeps the granted scopes without a hierarchy', () => {
    expect([...effectiveScopes(['a'], { a: ['b'], b: ['a'] })].sort()).toEqual(['a', 'b']);
    expect([...effectiveScopes(['x'], undefined)]).toEqual(['x']);
  });
});
