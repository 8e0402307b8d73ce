import { duration, MAX_TIMER_MS, readOptions, resetOptionWarnings, type OptionTable } from './option-table';

interface Limits {
  maxThingBytes?: number;
  /** @deprecated */
  thingLimit?: number;
  mode?: 'a' | 'b';
}

const LIMITS = {
  maxThingBytes: { type: 'integer', min: 1, default: 10 },
  thingLimit: { alias: 'maxThingBytes' },
  mode: { type: 'enum', values: ['a', 'b'], default: 'a' },
} as const satisfies OptionTable<Limits>;

function reader() {
  const warnings: string[] = [];
  return {
    warnings,
    reader: {
      label: 'things',
      fail: (problem: string, hint: string) => new RangeError(`${problem} | ${hint}`),
      warn: (message: string) => warnings.push(message),
    },
  };
}

describe('readOptions', () => {
  beforeEach(() => resetOptionWarnings());

  it('applies defaults and keeps what is given', () => {
    expect(readOptions(LIMITS, {}, reader().reader)).toEqual({ maxThingBytes: 10, mode: 'a' });
    expect(readOptions(LIMITS, { maxThingBytes: 3, mode: 'b' }, reader().reader)).toEqual({ maxThingBytes: 3, mode: 'b' });
  });

  it("throws the caller's error, naming the option, what it must be and what to do", () => {
    expect(() => readOptions(LIMITS, { maxThingBytes: 0 }, reader().reader)).toThrow(
      new RangeError('things: option "maxThingBytes" must be an integer ≥ 1 (got 0) | Give an integer ≥ 1, or leave "maxThingBytes" out for the default (10).'),
    );
  });

  it('takes a deprecated name for the new one, warning once per process', () => {
    const first = reader();
    expect(readOptions(LIMITS, { thingLimit: 4 }, first.reader)).toEqual({ maxThingBytes: 4, mode: 'a' });
    expect(readOptions(LIMITS, { thingLimit: 5 }, first.reader)).toEqual({ maxThingBytes: 5, mode: 'a' });
    expect(first.warnings).toEqual(['things: option "thingLimit" is deprecated and will be removed in the next release; use "maxThingBytes"']);
  });

  it('checks a deprecated name by the new rule, naming the name given', () => {
    expect(() => readOptions(LIMITS, { thingLimit: -1 }, reader().reader)).toThrow(/option "thingLimit" must be an integer ≥ 1 \(got -1\)/);
  });

  it('refuses the old and the new name together', () => {
    expect(() => readOptions(LIMITS, { thingLimit: 4, maxThingBytes: 4 }, reader().reader)).toThrow(
      /options "thingLimit" and "maxThingBytes" are both given: "thingLimit" is the deprecated name of "maxThingBytes"/,
    );
  });

  it('bounds a duration by what a Node timer holds, naming the option', () => {
    const TIMERS = {
      graceMs: duration({ min: 0, default: 2_000 }),
      timeoutMs: duration({ type: 'number', above: 0 }),
    } as const satisfies OptionTable<{ graceMs?: number; timeoutMs?: number }>;
    expect(readOptions(TIMERS, { graceMs: MAX_TIMER_MS, timeoutMs: 0.5 }, reader().reader)).toEqual({ graceMs: MAX_TIMER_MS, timeoutMs: 0.5 });
    expect(() => readOptions(TIMERS, { graceMs: MAX_TIMER_MS + 1 }, reader().reader)).toThrow(
      'things: option "graceMs" must be ≤ 2147483647 ms (about 24.8 days) (got 2147483648) | Node\'s timers fire a longer delay at once; give an integer from 0 to 2147483647, or leave "graceMs" out for the default (2000).',
    );
    expect(() => readOptions(TIMERS, { timeoutMs: 3e9 }, reader().reader)).toThrow(
      /option "timeoutMs" must be ≤ 2147483647 ms \(about 24\.8 days\) \(got 3000000000\)/,
    );
    expect(() => readOptions(TIMERS, { timeoutMs: 0 }, reader().reader)).toThrow(/option "timeoutMs" must be a number > 0 and ≤ 2147483647 \(got 0\)/);
  });

  it('reads own properties only, nested too: a polluted Object.prototype is no option', () => {
    const NESTED = { mode: LIMITS.mode, inner: { type: 'object', table: { mode: LIMITS.mode }, default: {} } } as const satisfies OptionTable<{
      mode?: 'a' | 'b';
      inner?: { mode?: 'a' | 'b' };
    }>;
    const prototype = Object.prototype as Record<string, unknown>;
    prototype.mode = 'b';
    prototype.thingLimit = 99;
    try {
      expect(readOptions(LIMITS, {}, reader().reader)).toEqual({ maxThingBytes: 10, mode: 'a' });
      expect(readOptions(NESTED, { inner: {} }, reader().reader)).toEqual({ mode: 'a', inner: { mode: 'a' } });
    } finally {
      delete prototype.mode;
      delete prototype.thingLimit;
    }
  });

  it('refuses unknown names, with a suggestion within two edits or a change of case', () => {
    const read = (given: object) => () => readOptions(LIMITS, given as Limits, reader().reader);
    expect(read({ maxThingByte: 1 })).toThrow(/option "maxThingByte" is unknown; did you mean "maxThingBytes"\?/);
    expect(read({ MODE: 'a' })).toThrow(/did you mean "mode"\?/);
    expect(read({ colour: 'red' })).toThrow(/option "colour" is unknown \| Remove it: the options of things are maxThingBytes, mode\./);
  });
});
