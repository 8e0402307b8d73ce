import { foundTools, rememberFound } from './found-tools';

describe('a session’s found tools', () => {
  it('says the list changed only when a search found a tool the session did not have', () => {
    const session = {};
    expect(foundTools(session)).toBeUndefined();
    expect(rememberFound(session, ['a', 'b'], 10)).toBe(true);
    expect(rememberFound(session, ['b', 'a'], 10)).toBe(false);
    expect(rememberFound(session, [], 10)).toBe(false);
    expect(rememberFound(session, ['a', 'c'], 10)).toBe(true);
    expect([...foundTools(session)!]).toEqual(['b', 'a', 'c']);
  });

  it('holds at most max, the least recently found leaving first', () => {
    const session = {};
    rememberFound(session, ['a', 'b', 'c'], 3);
    // Found again: 'a' becomes the newest, so 'b' is the one to go.
    rememberFound(session, ['a'], 3);
    expect(rememberFound(session, ['d'], 3)).toBe(true);
    expect([...foundTools(session)!]).toEqual(['c', 'a', 'd']);
    // One search past the cap keeps its last ones.
    rememberFound(session, ['e', 'f', 'g', 'h'], 3);
    expect([...foundTools(session)!]).toEqual(['f', 'g', 'h']);
  });

  it('keeps nothing with max 0, and keeps each session’s apart', () => {
    const one = {};
    const other = {};
    expect(rememberFound(one, ['a'], 0)).toBe(false);
    expect(foundTools(one)).toBeUndefined();
    rememberFound(one, ['a'], 5);
    expect(foundTools(other)).toBeUndefined();
    expect(foundTools(undefined)).toBeUndefined();
  });
});
