import fc from 'fast-check';
import { expressionPiece, firstViableEnd, literalPiece, type MatchMeter, type Piece } from './template-matcher';
import { UriTemplate } from './uri-template';

// Issue #26: templates were regexes, and a backtracking regex runs for seconds to hours on a
// short hostile URI. These properties hold the linear matcher to the old regex's answers on short
// URIs, and to a work bound on long ones; the bound is also shown to catch a backtracking matcher.

const OPERATORS = ['', '+', '#', '.', '/', ';', '?', '&'] as const;
type Operator = (typeof OPERATORS)[number];

/** A generated template: its text, and its parts as the test reads them (independently of `UriTemplate.parse`). */
interface Sample {
  text: string;
  parts: Array<{ literal: string } | { operator: Operator }>;
}

// The regex of each operator before #26, verbatim: the reference for "same answers as before".
const OLD_PATTERNS: Record<Operator, string> = {
  '': '([^/?#]+?)',
  '+': '([^?#]+?)',
  '#': '(?:#(.*))?',
  '.': '((?:\\.[^/?#.]*)*)',
  '/': '((?:/[^/?#]*)*)',
  ';': '((?:;[^/?#]*)*)',
  '?': '(?:\\?([^#]*?))?',
  '&': '(?:&([^#]*?))?',
};

function oldRegex(sample: Sample): RegExp {
  const body = sample.parts.map((part) => ('literal' in part ? part.literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : OLD_PATTERNS[part.operator])).join('');
  return new RegExp(`^${body}$`);
}

function piecesOf(sample: Sample): Piece[] {
  return sample.parts.map((part) => ('literal' in part ? literalPiece(part.literal) : expressionPiece(part.operator)));
}

class OverBudget extends Error {}

/**
 * The old regex's search, written out: each expression tries its ends in order and the rest of
 * the template after each, undoing on failure. Same answers, exponential work: the matcher the
 * step bound must refuse.
 */
function backtrackingCaptures(pieces: Piece[], uri: string, meter: MatchMeter, budget: number): Array<string | undefined> | undefined {
  const spans: Array<[number, number]> = [];
  const from = (i: number, p: number): boolean => {
    if (++meter.steps > budget) throw new OverBudget();
    if (i === pieces.length) return p === uri.length;
    const piece = pieces[i];
    if (piece.kind === 'literal') return uri.startsWith(piece.text, p) && from(i + 1, p + piece.text.length);
    const end = firstViableEnd(piece, uri, p, uri.length, (at) => from(i + 1, at), meter);
    spans[i] = [p, end];
    return end !== -1;
  };
  if (!from(0, 0)) return undefined;
  return pieces.flatMap((piece, i) => {
    if (piece.kind === 'literal') return [];
    const [p, end] = spans[i];
    return [!piece.dropsLead ? uri.slice(p, end) : end > p ? uri.slice(p + 1, end) : undefined];
  });
}

const LITERAL_CHARS = ['a', 'b', '-', '.', '/', ';', ',', '=', '?', '&', '#', '%', ':', '*'];
// What values are made of: separators of every operator, percent-encodings good and bad, a line
// end (the old `#` regex stopped there), a non-ASCII letter and half of a surrogate pair.
const VALUE_CHARS = ['a', 'b', '-', '.', '/', ';', ',', '=', '?', '&', '#', '%20', '%E0%A4%A', '%', '\n', 'é', '\ud83d'];
const LEADS: Record<Operator, string> = { '': '', '+': '', '#': '#', '.': '.', '/': '/', ';': ';', '?': '?', '&': '&' };

const variableArb = fc.record({ explode: fc.boolean(), prefix: fc.option(fc.integer({ min: 1, max: 9999 }), { nil: undefined }) });

const sampleArb: fc.Arbitrary<Sample> = fc
  .tuple(
    fc.array(
      fc.tuple(
        fc.string({ unit: fc.constantFrom(...LITERAL_CHARS), maxLength: 3 }),
        fc.constantFrom(...OPERATORS),
        fc.array(variableArb, { minLength: 1, maxLength: 3 }),
      ),
      {
        minLength: 1,
        maxLength: 4,
      },
    ),
    fc.string({ unit: fc.constantFrom(...LITERAL_CHARS), maxLength: 3 }),
  )
  .map(([pairs, tail]) => {
    let text = '';
    let names = 0;
    const parts: Sample['parts'] = [];
    for (const [literal, operator, variables] of pairs) {
      if (literal) parts.push({ literal });
      parts.push({ operator });
      const list = variables.map((v) => `v${names++}${v.explode ? '*' : v.prefix !== undefined ? `:${v.prefix}` : ''}`);
      text += `${literal}{${operator}${list.join(',')}}`;
    }
    if (tail) parts.push({ literal: tail });
    return { text: text + tail, parts };
  });

/** URIs near the template: its expansion with odd values, maybe with one character changed. */
function shortUriArb(sample: Sample): fc.Arbitrary<string> {
  const value = fc.array(fc.constantFrom(...VALUE_CHARS), { maxLength: 4 }).map((chars) => chars.join(''));
  const expansion = fc
    .tuple(
      ...sample.parts.map((part) =>
        'literal' in part
          ? fc.constant(part.literal)
          : fc.oneof(
              fc.constant(''),
              value.map((v) => LEADS[part.operator] + v),
            ),
      ),
    )
    .map((pieces) => pieces.join(''));
  const edited = fc
    .tuple(expansion, fc.nat(), fc.constantFrom('', ...VALUE_CHARS, ...LITERAL_CHARS), fc.boolean())
    .map(([uri, at, char, replace]) => uri.slice(0, at % (uri.length + 1)) + char + uri.slice((at % (uri.length + 1)) + (replace ? 1 : 0)));
  const noise = fc.array(fc.constantFrom(...VALUE_CHARS, ...LITERAL_CHARS), { maxLength: 12 }).map((chars) => chars.join(''));
  // Short enough for the old regex, whose worst case is exponential in the URI's length.
  return fc.oneof(expansion, edited, noise).map((uri) => uri.slice(0, 18));
}

// Runs of what makes a backtracking matcher try every split: separators its classes share.
const RUNS = [';', '-', '.', 'a.', '/', ';a', '?&', '&', 'a', '%', ',', '#'];

/** Long URIs shaped like #26's: the template's literals around long runs, then maybe a character that fails them. */
function longUriArb(sample: Sample): fc.Arbitrary<string> {
  const run = fc.tuple(fc.constantFrom(...RUNS), fc.integer({ min: 1, max: 600 })).map(([unit, times]) => unit.repeat(times));
  return fc
    .tuple(
      fc.tuple(...sample.parts.map((part) => ('literal' in part ? fc.constant(part.literal) : run.map((r) => LEADS[part.operator] + r)))),
      fc.constantFrom('', '/', '?', '#', 'x', '\n'),
    )
    .map(([pieces, last]) => pieces.join('') + last);
}

/** The work bound: a small constant times (pieces + 1) × (URI length + 1), plus the template. */
function budget(sample: Sample, uri: string): number {
  return 4 * (sample.parts.length + 1) * (uri.length + 1) + sample.text.length;
}

function measure(sample: Sample, uri: string): number {
  const meter = { steps: 0 };
  UriTemplate.parse(sample.text).measuredMatch(uri, meter);
  return meter.steps;
}

// A fixed seed keeps the suite deterministic; FUZZ_SEED explores others (a failure prints its seed).
const SEED = process.env.FUZZ_SEED === undefined ? 2026 : Number(process.env.FUZZ_SEED);

const withUri = (uriArb: (sample: Sample) => fc.Arbitrary<string>) => sampleArb.chain((sample) => fc.tuple(fc.constant(sample), uriArb(sample)));

describe('TemplateMatcher', () => {
  describe('captures', () => {
    it('reads every template and URI exactly as the old regex did', () => {
      fc.assert(
        fc.property(withUri(shortUriArb), ([sample, uri]) => {
          const old = oldRegex(sample).exec(uri)?.slice(1);
          expect(UriTemplate.parse(sample.text).captures(uri)).toEqual(old);
          // The written-out search agrees too: it is a faithful model of the old regex.
          expect(backtrackingCaptures(piecesOf(sample), uri, { steps: 0 }, Infinity)).toEqual(old);
        }),
        { numRuns: 1500, seed: SEED },
      );
    });

    it('works within a small constant times (pieces + 1) × (URI length + 1) on long hostile URIs', () => {
      fc.assert(
        fc.property(withUri(longUriArb), ([sample, uri]) => {
          expect(measure(sample, uri)).toBeLessThanOrEqual(budget(sample, uri));
        }),
        { numRuns: 300, seed: SEED },
      );
    });

    it('has a bound that a backtracking matcher (the old regex, written out) breaks', () => {
      const details = fc.check(
        fc.property(withUri(longUriArb), ([sample, uri]) => {
          try {
            backtrackingCaptures(piecesOf(sample), uri, { steps: 0 }, budget(sample, uri));
            return true;
          } catch (error) {
            if (error instanceof OverBudget) return false;
            throw error;
          }
        }),
        { numRuns: 300, seed: SEED },
      );
      expect(details.failed).toBe(true);
    });
  });
});
