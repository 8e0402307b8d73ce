/**
 * Matches a URI against a parsed RFC 6570 template in time linear in the URI, with the answers
 * the backtracking regex of earlier versions gave (issue #26: `matrix://grid{;x,y}` took 21 s on
 * a 46-character URI, `log://{day}-{level}-{service}` 226 s on 8 000 dashes).
 *
 * A template is a list of pieces: literal text, and expressions. An expression starting at
 * position `p` of the URI may end at a set of positions, tried in a fixed order; that order is
 * the disambiguation rule, and it is the regex's (its lazy and greedy quantifiers):
 *
 * - `{x}`: one or more characters other than `/?#`, the shortest first;
 * - `{+x}`: one or more characters other than `?#`, the shortest first;
 * - `{.x}`, `{;x}`: the operator, then characters other than `/?#`, the longest first, down to
 *   nothing at all (the value may hold more dots or semicolons);
 * - `{/x}`: `/`, then characters other than `?#`, likewise;
 * - `{#x}`: `#`, then anything up to a line end, likewise;
 * - `{?x}`, `{&x}`: the operator, then characters other than `#`, the shortest first; then nothing.
 *
 * The answer is the first choice, expression after expression, from which the rest of the
 * template can still match the rest of the URI. Instead of trying choices and undoing them, one
 * pass from the end of the URI to its start marks, for each piece and position, whether the rest
 * of the template matches from there; a second pass from the start then takes, for each
 * expression, the first end in its order that is marked. Each pass visits each (piece, position)
 * pair a bounded number of times: the work is at most a small constant times (pieces + 1) ×
 * (URI length + 1), plus the template's length, whatever the URI holds.
 */

/** Counts a match's work, so that tests can prove it linear without a clock. */
export interface MatchMeter {
  steps: number;
}

const SLASH = 0x2f;
const QUESTION = 0x3f;
const HASH = 0x23;

/**
 * A character class of the regexes this matcher replaces, as a table of the ASCII code units it
 * refuses; `lineEnds` also refuses U+2028 and U+2029. `[^/?#]`, `[^?#]`, `[^#]`, and `.` without
 * the `s` flag (every code unit but the four line terminators).
 */
interface CharClass {
  readonly refusedAscii: Uint8Array;
  readonly lineEnds: boolean;
}

function charClass(refused: readonly number[], lineEnds = false): CharClass {
  const refusedAscii = new Uint8Array(128);
  for (const code of refused) refusedAscii[code] = 1;
  return { refusedAscii, lineEnds };
}

const NOT_SLASH_QUERY_HASH = charClass([SLASH, QUESTION, HASH]);
const NOT_QUERY_HASH = charClass([QUESTION, HASH]);
const NOT_HASH = charClass([HASH]);
const NOT_LINE_END = charClass([0x0a, 0x0d], true);

function accepts(cls: CharClass, code: number): boolean {
  return code < 128 ? cls.refusedAscii[code] === 0 : !cls.lineEnds || (code !== 0x2028 && code !== 0x2029);
}

/** In which order an expression's possible ends are tried. */
type Order = 'shortest' | 'longest' | 'shortest-then-none';

/** Literal text of the template, matched character for character. */
export interface LiteralPiece {
  readonly kind: 'literal';
  readonly text: string;
  /** Knuth-Morris-Pratt failure table of `text`, so that finding it anywhere is linear. */
  readonly failure: Int32Array;
}

/** An expression: a run of one character class, maybe opened by a fixed character. */
export interface ExpressionPiece {
  readonly kind: 'expression';
  /** The character the value must start with (`.`, `/`, `;`, `?`, `&`, `#`), or -1 for none. */
  readonly lead: number;
  readonly chars: CharClass;
  /** The expression may match nothing at all. */
  readonly optional: boolean;
  readonly order: Order;
  /** The captured value leaves out the lead (`?`, `&`, `#`: their capture is undefined when absent). */
  readonly dropsLead: boolean;
}

export type Piece = LiteralPiece | ExpressionPiece;

const EXPRESSIONS: Readonly<Record<string, ExpressionPiece>> = {
  '': expression(-1, NOT_SLASH_QUERY_HASH, 'shortest'),
  '+': expression(-1, NOT_QUERY_HASH, 'shortest'),
  '#': expression(HASH, NOT_LINE_END, 'longest', true),
  '.': expression(0x2e, NOT_SLASH_QUERY_HASH, 'longest'),
  '/': expression(SLASH, NOT_QUERY_HASH, 'longest'),
  ';': expression(0x3b, NOT_SLASH_QUERY_HASH, 'longest'),
  '?': expression(QUESTION, NOT_HASH, 'shortest-then-none', true),
  '&': expression(0x26, NOT_HASH, 'shortest-then-none', true),
};

function expression(lead: number, chars: CharClass, order: Order, dropsLead = false): ExpressionPiece {
  return Object.freeze({ kind: 'expression', lead, chars, optional: lead !== -1, order, dropsLead });
}

/** The piece of an expression with this operator ('' for none). */
export function expressionPiece(operator: string): ExpressionPiece {
  return EXPRESSIONS[operator];
}

/** The piece of a run of literal text (not empty). */
export function literalPiece(text: string): LiteralPiece {
  const failure = new Int32Array(text.length);
  for (let i = 1, k = 0; i < text.length; i++) {
    while (k > 0 && text.charCodeAt(i) !== text.charCodeAt(k)) k = failure[k - 1];
    if (text.charCodeAt(i) === text.charCodeAt(k)) k++;
    failure[i] = k;
  }
  return Object.freeze({ kind: 'literal', text, failure });
}

const NONE = -1;

/**
 * The end of the expression starting at `p`: the first end, in the expression's order, for which
 * `viable(end)` holds; `NONE` when there is none. `viable` says whether the rest of the template
 * matches from `end`; the value stops at `stop` (the URI's end, or where its last literal begins).
 */
export function firstViableEnd(piece: ExpressionPiece, uri: string, p: number, stop: number, viable: (end: number) => boolean, meter: MatchMeter): number {
  const starts = p < stop && (piece.lead === -1 ? accepts(piece.chars, uri.charCodeAt(p)) : uri.charCodeAt(p) === piece.lead);
  if (starts && piece.order !== 'longest') {
    for (let end = p + 1; ; end++) {
      meter.steps++;
      if (viable(end)) return end;
      if (end === stop || !accepts(piece.chars, uri.charCodeAt(end))) break;
    }
  } else if (starts) {
    let last = p + 1;
    while (last < stop && accepts(piece.chars, uri.charCodeAt(last))) last++;
    meter.steps += last - p;
    for (let end = last; end > p; end--) {
      meter.steps++;
      if (viable(end)) return end;
    }
  }
  meter.steps++;
  return piece.optional && viable(p) ? p : NONE;
}

/** A template's pieces, compiled once; `captures` is the one thing done per URI. */
export class TemplateMatcher {
  private readonly prefix: string;
  private readonly suffix: string;
  /** The pieces between the leading and the trailing literal, which the tables are for. */
  private readonly inner: readonly Piece[];
  private readonly expressions: number;

  constructor(pieces: readonly Piece[]) {
    const first = pieces[0];
    this.prefix = first?.kind === 'literal' ? first.text : '';
    const rest = this.prefix ? pieces.slice(1) : pieces;
    const last = rest[rest.length - 1];
    this.suffix = last?.kind === 'literal' ? last.text : '';
    this.inner = this.suffix ? rest.slice(0, -1) : rest;
    this.expressions = pieces.filter((piece) => piece.kind === 'expression').length;
  }

  /**
   * Each expression's captured text, in template order (undefined for an absent `{?x}`, `{&x}`
   * or `{#x}`), or `undefined` when the URI does not match.
   */
  captures(uri: string, meter: MatchMeter): Array<string | undefined> | undefined {
    const { prefix, suffix, inner } = this;
    // The leading and trailing literals sit at the ends: most of an app's templates fail there,
    // on the scheme, without a table.
    meter.steps += prefix.length + suffix.length;
    if (!uri.startsWith(prefix) || !uri.endsWith(suffix)) return undefined;
    const start = prefix.length;
    const stop = uri.length - suffix.length;
    if (stop < start) return undefined;
    // viable[i * width + q - start]: inner pieces i… match uri[q…stop).
    const width = stop - start + 1;
    const viable = table((inner.length + 1) * width);
    viable[inner.length * width + width - 1] = 1;
    for (let i = inner.length - 1; i >= 0; i--) {
      const piece = inner[i];
      if (piece.kind === 'literal') markLiteral(piece, uri, start, stop, viable, i * width, (i + 1) * width, meter);
      else markExpression(piece, uri, start, stop, viable, i * width, (i + 1) * width, meter);
    }
    if (viable[0] === 0) return undefined;
    const captures = new Array<string | undefined>(this.expressions);
    let next = 0;
    const viableNext = (at: number) => viable[next + at - start] === 1;
    let p = start;
    let e = 0;
    for (let i = 0; i < inner.length; i++) {
      const piece = inner[i];
      if (piece.kind === 'literal') {
        p += piece.text.length;
        continue;
      }
      next = (i + 1) * width;
      const end = firstViableEnd(piece, uri, p, stop, viableNext, meter);
      captures[e++] = !piece.dropsLead ? uri.slice(p, end) : end > p ? uri.slice(p + 1, end) : undefined;
      p = end;
    }
    return captures;
  }
}

// One table serves every match (a match runs to its end without yielding); kept between
// matches up to this size, so a rare long URI does not pin its table.
const KEPT_TABLE_SIZE = 64 * 1024;
let scratch = new Uint8Array(1024);

/** A zeroed table of `size` bytes. */
function table(size: number): Uint8Array {
  if (size > scratch.length) {
    const fresh = new Uint8Array(size);
    if (size <= KEPT_TABLE_SIZE) scratch = fresh;
    return fresh;
  }
  scratch.fill(0, 0, size);
  return scratch;
}

/**
 * Marks where `piece` starts a match of the rest, in uri[start…stop): where its text occurs and
 * the next piece matches after it, found in one Knuth-Morris-Pratt scan.
 */
function markLiteral(piece: LiteralPiece, uri: string, start: number, stop: number, viable: Uint8Array, here: number, next: number, meter: MatchMeter): void {
  const { text, failure } = piece;
  const length = text.length;
  let steps = 1;
  for (let j = start, k = 0; j < stop; j++) {
    const code = uri.charCodeAt(j);
    while (k > 0 && text.charCodeAt(k) !== code) {
      k = failure[k - 1];
      steps++;
    }
    if (text.charCodeAt(k) === code) k++;
    steps++;
    if (k === length) {
      const after = j + 1 - start;
      if (viable[next + after] === 1) viable[here + after - length] = 1;
      k = failure[k - 1];
    }
  }
  meter.steps += steps;
}

/**
 * Marks where `piece` starts a match of the rest, in uri[start…stop]: from `stop` back, keeping
 * the nearest marked position of the next piece and where the run of the class at q ends.
 */
function markExpression(
  piece: ExpressionPiece,
  uri: string,
  start: number,
  stop: number,
  viable: Uint8Array,
  here: number,
  next: number,
  meter: MatchMeter,
): void {
  const { lead, optional } = piece;
  const { refusedAscii, lineEnds } = piece.chars;
  let nearest = stop + 1; // the smallest marked end after q
  let runEnd = stop; // where the run of the class that starts at q ends
  for (let q = stop; q >= start; q--) {
    const at = q - start;
    let code = -1;
    if (q < stop) {
      code = uri.charCodeAt(q);
      if (code < 128 ? refusedAscii[code] === 1 : lineEnds && (code === 0x2028 || code === 0x2029)) runEnd = q;
    }
    let ok = optional && viable[next + at] === 1;
    if (!ok && q < stop && (lead === -1 ? runEnd > q : code === lead)) ok = nearest <= runEnd;
    if (ok) viable[here + at] = 1;
    if (viable[next + at] === 1) nearest = q;
  }
  meter.steps += stop - start + 1;
}
