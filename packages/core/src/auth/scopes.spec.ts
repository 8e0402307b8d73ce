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

  it("reads only the hierarchy's own entries: a scope named like an inherited property is a scope like any other (#26)", () => {
    const implied = JSON.parse('{"notes:write":["notes:read"],"__proto__":["granted-by-proto"]}') as Record<string, string[]>;
    for (const name of ['constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect([...effectiveScopes([name, 'notes:write'], implied)].sort()).toEqual([name, 'notes:read', 'notes:write'].sort());
    }
    // An own __proto__ entry (JSON.parse makes one) is an entry; the literal kind is a prototype, never read.
    expect([...effectiveScopes(['__proto__'], implied)].sort()).toEqual(['__proto__', 'granted-by-proto']);
    expect([...effectiveScopes(['__proto__'], { a: ['b'] })]).toEqual(['__proto__']);
  });
});
