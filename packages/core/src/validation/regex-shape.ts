/**
 * The shape of a JavaScript regular expression, as far as backtracking cares: which characters
 * each step can read, in which sequences, alternatives and repetitions. Assertions read nothing;
 * a lookaround's body is kept apart (`sides`), since it backtracks on its own. Parsed once, at
 * start-up, from a pattern that already compiles.
 */

import { ANY, complementRanges, foldCase, unionRanges, type CharRanges } from './char-ranges';

/**
 * The characters one step reads. `ranges` is exact, or (`exact` false: a Unicode property, a
 * class of the v flag, anything under the i flag) a superset, and `source` then tells by test.
 */
export interface CharSet {
  readonly ranges: CharRanges;
  readonly exact: boolean;
  /** The step as written (`[a-z]`, `\p{L}`), with the regex's flags. */
  readonly source: string;
  readonly flags: string;
}

export type RegexShape =
  | { readonly kind: 'chars'; readonly set: CharSet }
  | { readonly kind: 'seq'; readonly items: readonly RegexShape[] }
  | { readonly kind: 'alt'; readonly options: readonly RegexShape[] }
  | { readonly kind: 'repeat'; readonly body: RegexShape; readonly min: number; readonly max: number; readonly text: string }
  | { readonly kind: 'empty' };

/** A parsed pattern: its main shape and the bodies of its lookarounds. */
export interface ParsedRegex {
  readonly shape: RegexShape;
  readonly sides: readonly RegexShape[];
  /** For each of `sides`: whether no character step comes before it, so that it runs where the pattern starts. */
  readonly sidesFirst: readonly boolean[];
}

const EMPTY: RegexShape = { kind: 'empty' };
const DIGITS: CharRanges = [0x30, 0x39];
const WORD: CharRanges = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];
const SPACES: CharRanges = [
  0x09, 0x0d, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f, 0x205f, 0x205f, 0x3000, 0x3000, 0xfeff, 0xfeff,
];
const LINE_ENDS: CharRanges = [0x0a, 0x0a, 0x0d, 0x0d, 0x2028, 0x2029];
const CONTROL_ESCAPES: Record<string, number> = { f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09, v: 0x0b, '0': 0 };

/** Reads `source` (which `new RegExp(source, flags)` accepts) into its shape. */
export function parseRegex(source: string, flags: string): ParsedRegex {
  return new RegexReader(source, flags).read();
}

class RegexReader {
  private index = 0;
  private readonly unicode: boolean;
  private readonly sets: boolean;
  private readonly sides: RegexShape[] = [];
  private readonly sidesFirst: boolean[] = [];
  /** Lookarounds around the step being read; and whether a step was read outside any. */
  private lookarounds = 0;
  private stepRead = false;
  /** The step being read has no exact ranges (see `CharSet`). */
  private inexact = false;
  private start = 0;

  constructor(
    private readonly source: string,
    private readonly flags: string,
  ) {
    this.sets = flags.includes('v');
    this.unicode = this.sets || flags.includes('u');
  }

  read(): ParsedRegex {
    const shape = this.alternation();
    return { shape, sides: this.sides, sidesFirst: this.sidesFirst };
  }

  private peek(offset = 0): string {
    return this.source.charAt(this.index + offset);
  }

  private alternation(): RegexShape {
    const options = [this.sequence()];
    while (this.peek() === '|') {
      this.index++;
      options.push(this.sequence());
    }
    return options.length === 1 ? options[0] : { kind: 'alt', options };
  }

  private sequence(): RegexShape {
    const items: RegexShape[] = [];
    while (this.index < this.source.length && this.peek() !== '|' && this.peek() !== ')') {
      const start = this.index;
      const atom = this.atom();
      items.push(this.quantified(atom, start));
    }
    return items.length === 1 ? items[0] : { kind: 'seq', items };
  }

  private quantified(atom: RegexShape, start: number): RegexShape {
    const bounds = this.quantifier();
    if (bounds === undefined) return atom;
    if (this.peek() === '?') this.index++;
    const [min, max] = bounds;
    return { kind: 'repeat', body: atom, min, max, text: this.source.slice(start, this.index) };
  }

  private quantifier(): [number, number] | undefined {
    const char = this.peek();
    if (char === '*' || char === '+' || char === '?') {
      this.index++;
      return char === '*' ? [0, Infinity] : char === '+' ? [1, Infinity] : [0, 1];
    }
    if (char !== '{') return undefined;
    const found = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.index));
    // Outside the u and v flags a brace that is not a quantifier is a literal one.
    if (!found) return undefined;
    this.index += found[0].length;
    const min = Number(found[1]);
    const max = found[2] === undefined ? min : found[3] === '' ? Infinity : Number(found[3]);
    return [min, max];
  }

  private atom(): RegexShape {
    const char = this.peek();
    this.start = this.index;
    this.inexact = this.flags.includes('i');
    this.index++;
    switch (char) {
      case '^':
      case '$':
        return EMPTY;
      case '.':
        return this.chars(this.flags.includes('s') ? ANY : complementRanges(LINE_ENDS));
      case '[':
        return this.chars(this.characterClass());
      case '(':
        return this.group();
      case '\\':
        return this.escape();
      default: {
        const code = this.source.codePointAt(this.index - 1)!;
        if (code > 0xffff && this.unicode) this.index++;
        return this.chars([code, code]);
      }
    }
  }

  private chars(ranges: CharRanges): RegexShape {
    if (this.lookarounds === 0) this.stepRead = true;
    const source = this.source.slice(this.start, this.index);
    const caseless = this.flags.includes('i');
    return { kind: 'chars', set: { ranges: caseless ? foldCase(ranges) : ranges, exact: !this.inexact, source, flags: this.flags } };
  }

  private group(): RegexShape {
    let lookaround = false;
    if (this.peek() === '?') {
      const next = this.peek(1);
      if (next === '=' || next === '!') {
        lookaround = true;
        this.index += 2;
      } else if (next === '<' && (this.peek(2) === '=' || this.peek(2) === '!')) {
        lookaround = true;
        this.index += 3;
      } else if (next === '<') {
        this.index = this.source.indexOf('>', this.index) + 1;
      } else {
        // (?:…) and the modifier groups (?i:…), (?-i:…)
        this.index = this.source.indexOf(':', this.index) + 1;
      }
    }
    if (!lookaround) {
      const body = this.alternation();
      this.index++; // ')'
      return body;
    }
    const first = !this.stepRead;
    this.lookarounds++;
    const body = this.alternation();
    this.lookarounds--;
    this.index++; // ')'
    this.sides.push(body);
    this.sidesFirst.push(first);
    return EMPTY;
  }

  private escape(): RegexShape {
    const char = this.peek();
    this.index++;
    switch (char) {
      case 'b':
      case 'B':
        return EMPTY;
      case 'k':
        if (this.peek() === '<') {
          this.index = this.source.indexOf('>', this.index) + 1;
          return this.backreference();
        }
        return this.chars([0x6b, 0x6b]);
      default:
        if (/[1-9]/.test(char)) {
          while (/[0-9]/.test(this.peek())) this.index++;
          return this.backreference();
        }
        return this.chars(this.escapedChars(char));
    }
  }

  /** What a backreference may read: any text, as far as this shape can tell. */
  private backreference(): RegexShape {
    if (this.lookarounds === 0) this.stepRead = true;
    const anything: CharSet = { ranges: ANY, exact: true, source: '[^]', flags: '' };
    return { kind: 'repeat', body: { kind: 'chars', set: anything }, min: 0, max: Infinity, text: this.source.slice(this.start, this.index) };
  }

  /** The characters of an escape whose backslash and first letter (`char`) were read. */
  private escapedChars(char: string): CharRanges {
    switch (char) {
      case 'd':
        return DIGITS;
      case 'D':
        return complementRanges(DIGITS);
      case 'w':
        return WORD;
      case 'W':
        return complementRanges(WORD);
      case 's':
        return SPACES;
      case 'S':
        return complementRanges(SPACES);
      case 'p':
      case 'P':
        if (!this.unicode) return [char.charCodeAt(0), char.charCodeAt(0)];
        // A Unicode property: told by test (CharSet).
        this.index = this.source.indexOf('}', this.index) + 1;
        this.inexact = true;
        return ANY;
      case 'c': {
        const letter = this.peek();
        if (/[A-Za-z]/.test(letter)) {
          this.index++;
          const code = letter.charCodeAt(0) % 32;
          return [code, code];
        }
        return [0x5c, 0x5c];
      }
      case 'x': {
        const hex = /^[0-9A-Fa-f]{2}/.exec(this.source.slice(this.index));
        if (!hex) return [0x78, 0x78];
        this.index += 2;
        const code = parseInt(hex[0], 16);
        return [code, code];
      }
      case 'u': {
        const code = this.unicodeEscape();
        return code === undefined ? [0x75, 0x75] : [code, code];
      }
      default: {
        const control = CONTROL_ESCAPES[char];
        if (control !== undefined) return [control, control];
        const code = this.source.codePointAt(this.index - 1)!;
        if (code > 0xffff) this.index++;
        return [code, code];
      }
    }
  }

  private unicodeEscape(): number | undefined {
    const rest = this.source.slice(this.index);
    const braced = this.unicode ? /^\{([0-9A-Fa-f]+)\}/.exec(rest) : null;
    if (braced) {
      this.index += braced[0].length;
      return parseInt(braced[1], 16);
    }
    const four = /^[0-9A-Fa-f]{4}/.exec(rest);
    if (!four) return undefined;
    this.index += 4;
    return parseInt(four[0], 16);
  }

  /** A `[…]` whose `[` was read. */
  private characterClass(): CharRanges {
    const negated = this.peek() === '^';
    if (negated) this.index++;
    if (this.sets) return this.setClass();
    const parts: CharRanges[] = [];
    // In JavaScript `]` always closes a class, even first (`[]` reads nothing, `[^]` anything).
    while (this.index < this.source.length && this.peek() !== ']') {
      const from = this.classAtom();
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== '' && from.length === 2 && from[0] === from[1]) {
        const save = this.index;
        this.index++;
        const to = this.classAtom();
        if (to.length === 2 && to[0] === to[1]) {
          parts.push([from[0], to[0]]);
          continue;
        }
        this.index = save;
      }
      parts.push(from);
    }
    this.index++; // ']'
    const set = unionRanges(...parts);
    return negated ? complementRanges(set) : set;
  }

  private classAtom(): CharRanges {
    const char = this.peek();
    this.index++;
    if (char !== '\\') {
      const code = this.source.codePointAt(this.index - 1)!;
      if (code > 0xffff && this.unicode) this.index++;
      return [code, code];
    }
    const escaped = this.peek();
    this.index++;
    if (escaped === 'b') return [0x08, 0x08];
    if (escaped === '-') return [0x2d, 0x2d];
    return this.escapedChars(escaped);
  }

  /** A class of the v flag (nested classes, `--`, `&&`, `\q{…}`): told by test (CharSet). */
  private setClass(): CharRanges {
    let depth = 1;
    while (this.index < this.source.length && depth > 0) {
      const char = this.peek();
      this.index += char === '\\' ? 2 : 1;
      if (char === '[') depth++;
      else if (char === ']') depth--;
    }
    this.inexact = true;
    return ANY;
  }
}
