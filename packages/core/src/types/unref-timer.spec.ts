import { unrefTimer } from './unref-timer';

describe('unrefTimer', () => {
  it("calls a Node timer's unref and returns the same timer", () => {
    const calls: unknown[] = [];
    const timer = {
      unref(this: unknown) {
        calls.push(this);
      },
    };
    expect(unrefTimer(timer)).toBe(timer);
    expect(calls).toEqual([timer]);
  });

  it('leaves a numeric timer (Workers, browsers) as it is', () => {
    expect(unrefTimer(42)).toBe(42);
    expect(unrefTimer(undefined)).toBeUndefined();
    expect(unrefTimer({ unref: 'not a function' })).toEqual({ unref: 'not a function' });
  });
});
