import { backtrackingRisk } from './regex-safety';

describe('backtrackingRisk: exponential repetitions', () => {
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
    expect(backtrackingRisk(source, 'u')).toEqual({ kind: 'ambiguous-repetition', repetition });
  });

  it('reads flags: case-insensitive alternatives can read the same text', () => {
    expect(backtrackingRisk('^(?:a|A)+$', '')).toBeUndefined();
    expect(backtrackingRisk('^(?:a|A)+$', 'i')).toEqual({ kind: 'ambiguous-repetition', repetition: '(?:a|A)+' });
    expect(backtrackingRisk('^(?:.|\\n)*$', '')).toBeUndefined();
    expect(backtrackingRisk('^(?:.|\\n)*$', 's')).toEqual({ kind: 'ambiguous-repetition', repetition: '(?:.|\\n)*' });
    expect(backtrackingRisk('^[a-z0-9]+(?:-[a-z0-9]+)*$', 'i')).toBeUndefined();
  });

  it('tells Unicode properties and classes of the v flag by testing the characters they may share', () => {
    expect(backtrackingRisk('^\\p{L}+(?:[ -]\\p{L}+)*$', 'u')).toBeUndefined();
    expect(backtrackingRisk('^(?:\\p{Lu}|[A-Z])+$', 'u')).toEqual({ kind: 'ambiguous-repetition', repetition: '(?:\\p{Lu}|[A-Z])+' });
    expect(backtrackingRisk('^[\\p{L}--[a-z]]+(?:-[\\p{L}--[a-z]]+)*$', 'v')).toBeUndefined();
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
    // Quadratic at worst (two neighbouring repetitions that can share a text).
    ['^\\s*\\S.*\\s*$'],
  ])('passes the unambiguous %s', (source) => {
    expect(backtrackingRisk(source, 'u')).toBeUndefined();
  });

  it('refuses what is too large to check rather than guessing', () => {
    expect(backtrackingRisk(`^(?:${'-[a-z]'.repeat(600)})+$`, 'u')).toEqual({ kind: 'too-large' });
  });
});

describe('backtrackingRisk: counted copies written out (#26 review, finding 1)', () => {
  // Each was accepted and took seconds to minutes on a value of 40-60 characters in V8:
  // ^(?:\w{1,10}\s?){1,10}$ 4.9 s on 41 characters, 25.6 s on 51.
  it.each([
    ['^(?:\\w{1,10}\\s?){1,10}$', '(?:\\w{1,10}\\s?){1,10}'],
    ['^(?:[a-z0-9]{1,10}-?){1,10}$', '(?:[a-z0-9]{1,10}-?){1,10}'],
    ['^(?:[0-9a-f]{1,4}:?){1,8}$', '(?:[0-9a-f]{1,4}:?){1,8}'],
    ['^(a{1,10}){1,10}$', '(a{1,10}){1,10}'],
    ['^(?:a{1,5}){1,10}b$', '(?:a{1,5}){1,10}'],
    ['^(\\d{1,3}\\.?){1,10}$', '(\\d{1,3}\\.?){1,10}'],
    ['^(?:a|a){10}$', '(?:a|a){10}'],
    ['^(?:\\p{L}{1,10} ?){1,10}$', '(?:\\p{L}{1,10} ?){1,10}'],
    // Forced rounds of a body that may read nothing: 15 a's in C(30, 15) ways.
    ['^(a?){30}a{30}$', '(a?){30}'],
  ])('refuses %s, naming %s', (source, repetition) => {
    expect(backtrackingRisk(source, 'u')).toEqual({ kind: 'too-many-ways', repetition });
  });

  it('refuses the same copies written out by hand, naming no one repetition', () => {
    expect(backtrackingRisk(`^${'(?:a|a)'.repeat(11)}$`, 'u')).toEqual({ kind: 'too-many-ways', repetition: undefined });
    expect(backtrackingRisk(`^${'(?:\\w{1,10}\\s?){1,3}'.repeat(3)}$`, 'u')).toEqual({ kind: 'too-many-ways', repetition: undefined });
  });

  it.each([
    // A text splits one way only: each copy starts with a separator it must read.
    ['^[a-z0-9]{1,10}(?:-[a-z0-9]{1,10}){0,9}$'],
    ['^\\w{1,10}(?:\\s\\w{1,10}){0,9}$'],
    ['^(?:-[a-z0-9]{1,10}){1,10}$'],
    ['^\\d{1,3}(\\.\\d{1,3}){3}$'],
    ['^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$'],
    // A few ways at most, whatever the text: 5 rounds of at most 3 lengths each.
    ['^\\+?\\d{1,3}(?:[ -]?\\d{2,4}){2,5}$'],
    ['^(?:a|a){2,5}$'],
    ['^(?:\\d{0,3}\\.?){4}$'],
    // Long counts of one step, and of a group that starts with a separator: one way.
    ['^.{0,1000}$'],
    ['^(?:-[a-z]{1,63}){0,127}$'],
    ['^[\\p{L}\\p{N}_.-]{1,64}@[\\p{L}\\p{N}.-]{1,255}$'],
    // Unicode properties are told apart by test: \p{Ll} does not read the space.
    ['^\\p{Lu}\\p{Ll}{0,30}(?: \\p{Lu}\\p{Ll}{0,30}){0,5}$'],
  ])('passes %s', (source) => {
    expect(backtrackingRisk(source, 'u')).toBeUndefined();
  });
});

describe('backtrackingRisk: neighbouring repetitions that share a text (#26 review, finding 7)', () => {
  // Each was accepted: ^[A-Z0-9]+-?[A-Z0-9]+-?[A-Z0-9]+$ took 21.6 s on 4 000 characters,
  // ^\w+\d+\w+\d+$ 28.5 s on 500, ^.*.*.*=$ 15.4 s on 4 000, ^a*a*a*a*b$ 58.7 s on 1 000.
  it.each([
    ['^[A-Z0-9]+-?[A-Z0-9]+-?[A-Z0-9]+$', 3, ['[A-Z0-9]+', '[A-Z0-9]+', '[A-Z0-9]+']],
    ['^\\w+\\d+\\w+\\d+$', 4, ['\\w+', '\\d+', '\\w+', '\\d+']],
    ['^.*.*.*=$', 3, ['.*', '.*', '.*']],
    ['^a*a*a*a*b$', 4, ['a*', 'a*', 'a*', 'a*']],
    ['^a*a*a*$', 3, ['a*', 'a*', 'a*']],
    ['^(?:a|b)*(?:a|b)*(?:a|b)*c$', 3, ['(?:a|b)*', '(?:a|b)*', '(?:a|b)*']],
    ['^\\s*\\S*\\s*\\s*\\s*$', 4, ['\\s*', '\\s*', '\\s*', '\\s*']],
    // Trim: 1.6 s on 2 000 spaces and "!\n!" (.*? and both \s* read spaces).
    ['^\\s*(.*?)\\s*$', 3, ['\\s*', '.*?', '\\s*']],
    // Two pairs apart: split a's between a* and a*, then b's between b* and b*.
    ['^a*a*-b*b*$', 3, ['a*', 'a*', 'b*', 'b*']],
    // A counted repetition above {n,10} counts as a loop.
    ['^[a-z]{1,20}[a-z0-9]{0,20}[0-9]{1,20}$', 3, ['[a-z]{1,20}', '[a-z0-9]{0,20}', '[0-9]{1,20}']],
  ])('refuses %s: degree %d, through %j', (source, degree, repetitions) => {
    expect(backtrackingRisk(source, 'u')).toEqual({ kind: 'polynomial', degree, repetitions, everyStart: false });
  });

  it.each([
    // Without ^ the engine tries every position: one more. 5 s on 2 000 a's, "@", 2 000 dots and "@".
    ['[^@]+@[^@]+\\.[^@]+$', ['[^@]+', '[^@]+', '[^@]+']],
    ['[a-z]+[a-z]+!', ['[a-z]+', '[a-z]+']],
    ['a*a*b', ['a*', 'a*']],
    // The m flag lets ^ match after any line end.
    ['^\\w+\\w*=$', ['\\w+', '\\w*'], 'mu'],
    // A lookaround past the start is tried at every position the engine reaches it.
    ['^\\w(?=.*\\d.*\\d)', ['.*', '.*']],
  ])('refuses %s, tried from every position', (source, repetitions, flags = 'u') => {
    expect(backtrackingRisk(source, flags)).toEqual({ kind: 'polynomial', degree: 3, repetitions, everyStart: true });
  });

  it.each([
    // Quadratic: milliseconds on 2 000 characters, half a second on 32 000 (docs/validation.md).
    ['^a*a*b$'],
    ['^\\w+\\w*=$'],
    ['^.*.*=$'],
    ['^[^@]+@[^@]+\\.[^@]+$'],
    ['^[A-Z0-9]+-?[A-Z0-9]+$'],
    ['^\\s*(\\S(?:.*\\S)?)?\\s*$'],
    ['[a-z]+='],
    ['^(?=.*\\d.*\\d)[a-z0-9]+$'],
    // b* may read nothing: the a's split between the two a*.
    ['^a*b*a*$'],
    // Each repetition starts with what the one before cannot read: linear.
    ['^[A-Z0-9]+(?:-[A-Z0-9]+){0,2}$'],
  ])('passes %s', (source) => {
    expect(backtrackingRisk(source, 'u')).toBeUndefined();
  });
});

describe('backtrackingRisk: the real-world patterns the review checked pass', () => {
  it.each([
    ['email', '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$'],
    [
      'email (HTML standard)',
      "^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$",
    ],
    ['email (OWASP)', '^[a-zA-Z0-9_+&*-]+(?:\\.[a-zA-Z0-9_+&*-]+)*@(?:[a-zA-Z0-9-]+\\.)+[a-zA-Z]{2,7}$'],
    ['email (common)', '^[\\w.+-]+@[\\w-]+\\.[\\w.-]+$'],
    ['URL', '^https?:\\/\\/(www\\.)?[-a-zA-Z0-9@:%._\\+~#=]{1,256}\\.[a-zA-Z0-9()]{1,6}\\b([-a-zA-Z0-9()@:%_\\+.~#?&\\/=]*)$'],
    ['URL (simple)', '^https?://[^\\s/$.?#].[^\\s]*$'],
    ['URL (paths)', '^https?:\\/\\/[^\\s/]+(?:\\/[^\\s/]*)*$'],
    ['UUID', '^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$'],
    ['UUID (any)', '^[0-9a-fA-F]{8}\\b-[0-9a-fA-F]{4}\\b-[0-9a-fA-F]{4}\\b-[0-9a-fA-F]{4}\\b-[0-9a-fA-F]{12}$'],
    ['ISO date', '^\\d{4}-\\d{2}-\\d{2}$'],
    ['ISO date-time', '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?(?:Z|[+-]\\d{2}:\\d{2})$'],
    ['time', '^([01]\\d|2[0-3]):[0-5]\\d$'],
    [
      'semver',
      '^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$',
    ],
    ['semver (loose)', '^v?(\\d+)\\.(\\d+)\\.(\\d+)(?:-([\\w.-]+))?(?:\\+([\\w.-]+))?$'],
    ['phone (E.164)', '^\\+[1-9]\\d{1,14}$'],
    ['phone (US)', '^\\(?([0-9]{3})\\)?[-. ]?([0-9]{3})[-. ]?([0-9]{4})$'],
    ['phone (loose)', '^\\+?[0-9 ()-]{7,20}$'],
    ['phone (groups)', '^\\+?\\d{1,3}(?:[ -]?\\d{2,4}){2,5}$'],
    ['hostname', '^(([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9\\-]*[a-zA-Z0-9])\\.)*([A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9\\-]*[A-Za-z0-9])$'],
    ['hostname (labels)', '^(?!-)[A-Za-z0-9-]{1,63}(?<!-)(\\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))*$'],
    ['Kubernetes name', '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'],
    ['domain', '^([a-z0-9-]+\\.)+[a-z]{2,}$'],
    ['base64', '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$'],
    ['IPv4', '^\\d{1,3}(\\.\\d{1,3}){3}$'],
    ['IPv4 (octets)', '^(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)$'],
    ['IPv4 (short)', '^((25[0-5]|(2[0-4]|1\\d|[1-9]|)\\d)\\.?\\b){4}$'],
    ['MAC address', '^([0-9A-Fa-f]{2}[:-]){5}([0-9A-Fa-f]{2})$'],
    ['hex colour', '^#?([a-f0-9]{6}|[a-f0-9]{3})$'],
    ['JWT', '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*$'],
    ['password rules', '^(?=.*[a-z])(?=.*[A-Z])(?=.*\\d)(?=.*[@$!%*?&])[A-Za-z\\d@$!%*?&]{8,}$'],
    ['slug', '^[a-z0-9]+(?:-[a-z0-9]+)*$'],
    ['identifier', '^[A-Za-z_$][A-Za-z0-9_$]*$'],
    ['name', "^\\p{L}+(?:[ '\\-]\\p{L}+)*$"],
    ['words', '^\\w+(?: \\w+)*$'],
    ['tags', '^[a-z]+(,[a-z]+)*$'],
    ['CSV row', '^([^,]*,)*[^,]*$'],
    ['dotted version', '^(\\d+\\.)*\\d+$'],
    ['quoted string', '^"(?:[^"\\\\]|\\\\.)*"$'],
    ['Windows path', '^[a-zA-Z]:\\\\(?:[^\\\\/:*?"<>|\\r\\n]+\\\\)*[^\\\\/:*?"<>|\\r\\n]*$'],
    ['Unix path', '^(/[^/\\0]+)+/?$'],
    ['credit card', '^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|3[47][0-9]{13})$'],
    ['UK postcode', '^[A-Z]{1,2}\\d[A-Z\\d]? ?\\d[A-Z]{2}$'],
    ['git SHA', '^[0-9a-f]{7,40}$'],
  ])('%s: %s', (_name, source) => {
    expect(backtrackingRisk(source, 'u')).toBeUndefined();
  });
});
