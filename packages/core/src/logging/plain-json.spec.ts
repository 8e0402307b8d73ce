import { plainJson } from './plain-json';

describe('plainJson', () => {
  it('writes a number as pino does: its shortest text, null when not finite', () => {
    for (const value of [0, -0, 1, -1, 42, 2 ** 31, 2 ** 53 + 2, 0.1, 1 / 3, 1e21, 1.5e-7, -123.456, Number.MAX_VALUE, Number.MIN_VALUE]) {
      expect(plainJson(value)).toBe(String(value === 0 ? 0 : value));
      expect(JSON.parse(plainJson(value)!)).toBe(value === 0 ? 0 : value);
    }
    for (const value of [Number.NaN, Infinity, -Infinity]) expect(plainJson(value)).toBe('null');
  });

  it('quotes strings, writes booleans and toJSON objects, and leaves the rest to pino', () => {
    expect(plainJson('a"b')).toBe('"a\\"b"');
    expect(plainJson(true)).toBe('true');
    expect(plainJson(new Date(0))).toBe('"1970-01-01T00:00:00.000Z"');
    expect(plainJson({ a: 1 })).toBeUndefined();
    expect(plainJson(null)).toBeUndefined();
    expect(plainJson(undefined)).toBeUndefined();
  });
});
