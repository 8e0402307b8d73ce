import { exponentialRisk } from './regex-safety';

describe('exponentialRisk', () => {
  // Each takes seconds or more on a crafted value of a few dozen characters in V8.
  it.each([
    ['(a+)+$', '(a+)+'],
    ['^(a|a)*$', '(a|a)*'],
    ['^(\\w+\\s?)*$', '(\\w+\\s?)*'],
    ['^(\\d|\\w)+$', '(\\d|\\w)+'],
    ['^(a*)*$', '(a*)*'],
    ['^([a-z]+)*$', '([a-z]+)*'],
    ['^(.*,)*x$', '(.*,)*'],
    ['^(\\w+\\.?)+@example\\.com$', '(\\w+\\.?)+'],
    ['^(a|b|ab)*c$', '(a|b|ab)*'],
    ['^(x|a+)+$', '(x|a+)+'],
    ['^(\\d{1,3})+$', '(\\d{1,3})+'],
    ['^(?:ab|ab)*$', '(?:ab|ab)*'],
    ['^(?:[a-z]+-?)+$', '(?:[a-z]+-?)+'],
    ['^(?=(a+)+$)a', '(a+)+'],
    ['^(?<word>\\w+\\s?)*$', '(?<word>\\w+\\s?)*'],
    ['^(?:\\u{61}|a)+$', '(?:\\u{61}|a)+'],
    ['^(?:[^,]+,?)*$', '(?:[^,]+,?)*'],
    ['^(?:a|a){2,30}$', '(?:a|a){2,30}'],
  ])('finds the ambiguous repetition of %s', (source, repetition) => {
    expect(exponentialRisk(source, 'u')).toEqual({ kind: 'ambiguous-repetition', repetition });
  });

  it('reads flags: case-insensitive alternatives can read the same text', () => {
    expect(exponentialRisk('^(?:a|A)+$', '')).toBeUndefined();
    expect(exponentialRisk('^(?:a|A)+$', 'i')).toEqual({ kind: 'ambiguous-repetition', repetition: '(?:a|A)+' });
    expect(exponentialRisk('^(?:.|\\n)*$', '')).toBeUndefined();
    expect(exponentialRisk('^(?:.|\\n)*$', 's')).toEqual({ kind: 'ambiguous-repetition', repetition: '(?:.|\\n)*' });
    expect(exponentialRisk('^[a-z0-9]+(?:-[a-z0-9]+)*$', 'i')).toBeUndefined();
  });

  it('tells Unicode properties and classes of the v flag by testing the characters they may share', () => {
    expect(exponentialRisk('^\\p{L}+(?:[ -]\\p{L}+)*$', 'u')).toBeUndefined();
    expect(exponentialRisk('^(?:\\p{Lu}|[A-Z])+$', 'u')).toEqual({ kind: 'ambiguous-repetition', repetition: '(?:\\p{Lu}|[A-Z])+' });
    expect(exponentialRisk('^[\\p{L}--[a-z]]+(?:-[\\p{L}--[a-z]]+)*$', 'v')).toBeUndefined();
  });

  it.each([
    ['^[a-z0-9-]+$'],
    ['^[0-9]{5}$'],
    ['^[a-z0-9]+(?:-[a-z0-9]+)*$'],
    ['^([a-z0-9]+-)*[a-z0-9]+$'],
    ['^(?:[a-z]+\\.)*[a-z]+$'],
    ['^[a-z]+(?: [a-z]+)*$'],
    ['^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$'],
    ['^[\\w.+-]+@[\\w-]+\\.[\\w.-]+$'],
    ["^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$"],
    ['^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$'],
    [
      '^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$',
    ],
    ['^((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)$'],
    ['^(?!-)[A-Za-z0-9-]{1,63}(?<!-)(\\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))*$'],
    ['^(\\d+(\\.\\d+)?,)*\\d+(\\.\\d+)?$'],
    ['^(a|ab)*c$'],
    ['^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$'],
    ['^(?:[0-9a-f]{2}:){5}[0-9a-f]{2}$'],
    // Counted: at most 2^5 ways, whatever the input.
    ['^(?:a|a){2,5}$'],
    ['^\\p{L}+(?:[ -]\\p{L}+)*$'],
    ['^(?<year>\\d{4})-(?<month>\\d{2})$'],
    ['^https?:\\/\\/[^\\s/]+(?:\\/[^\\s/]*)*$'],
    // Polynomial at worst: bounded by the value's length, not this check's business.
    ['^\\s*\\S.*\\s*$'],
  ])('passes the unambiguous %s', (source) => {
    expect(exponentialRisk(source, 'u')).toBeUndefined();
  });

  it('refuses what is too large to check rather than guessing', () => {
    expect(exponentialRisk(`^(?:${'-[a-z]'.repeat(600)})+$`, 'u')).toEqual({ kind: 'too-large' });
  });
});
