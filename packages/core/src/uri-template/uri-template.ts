/**
 * RFC 6570 URI templates, read in reverse: given a template, decide whether a concrete URI
 * matches it and recover the variables. Parsed and compiled once at start-up.
 */
import { expressionPiece, literalPiece, TemplateMatcher, type MatchMeter, type Piece } from './template-matcher';

interface VariableSpec {
  name: string;
  explode: boolean;
}

interface Expression {
  operator: string;
  variables: VariableSpec[];
}

const OPERATORS = new Set(['', '+', '#', '.', '/', ';', '?', '&']);
const RESERVED_OPERATORS = new Set(['=', ',', '!', '@', '|']);
const VARIABLE_NAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;

/** Thrown by `UriTemplate.parse` with a message that points at the problem. */
export class UriTemplateSyntaxError extends Error {}

function decode(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

function parseExpression(body: string, template: string): Expression {
  let operator = body.charAt(0);
  if (RESERVED_OPERATORS.has(operator)) throw new UriTemplateSyntaxError(`operator "${operator}" is reserved by RFC 6570 in "${template}"`);
  if (!OPERATORS.has(operator) || operator === '') operator = '';
  const list = operator ? body.slice(1) : body;
  if (list === '') throw new UriTemplateSyntaxError(`empty expression "{${body}}" in "${template}"`);
  const variables = list.split(',').map((raw) => {
    let name = raw;
    let explode = false;
    if (name.endsWith('*')) {
      explode = true;
      name = name.slice(0, -1);
    } else {
      const colon = name.indexOf(':');
      if (colon !== -1) {
        const length = name.slice(colon + 1);
        if (!/^[1-9][0-9]{0,3}$/.test(length)) throw new UriTemplateSyntaxError(`bad prefix length in "{${body}}" of "${template}"`);
        name = name.slice(0, colon);
      }
    }
    if (!VARIABLE_NAME.test(name)) throw new UriTemplateSyntaxError(`bad variable name "${raw}" in "${template}"`);
    return { name, explode };
  });
  return { operator, variables };
}

type Extractor = (capture: string | undefined, into: Record<string, string | string[]>) => boolean;

/**
 * Reads a list expression. Beyond the variables' items (no `*` to take them), a separator is part
 * of the last value only where a string value may hold it as it is (`inValue`: ',' under `+` and
 * `#`, '.' under `.`); elsewhere a string value's separator is percent-encoded (`%2C`, `%2F`), so
 * `notes://{id}` does not match `notes://1,999`, which only a list expands to.
 */
function listExtractor(expression: Expression, separator: string, inValue: boolean): Extractor {
  const { variables } = expression;
  return (capture, into) => {
    if (capture === undefined || capture === '') return true;
    const items = capture.split(separator);
    for (let i = 0; i < variables.length; i++) {
      const spec = variables[i];
      if (spec.explode) {
        const rest = items.slice(i).map(decode);
        if (rest.some((item) => item === undefined)) return false;
        into[spec.name] = rest as string[];
        return true;
      }
      if (i >= items.length) break;
      const last = i === variables.length - 1;
      const value = decode(last && inValue ? items.slice(i).join(separator) : items[i]);
      if (value === undefined) return false;
      into[spec.name] = value;
    }
    return inValue || items.length <= variables.length;
  };
}

function namedExtractor(expression: Expression, separator: string): Extractor {
  const wanted = new Map(expression.variables.map((spec) => [spec.name, spec]));
  return (capture, into) => {
    if (capture === undefined || capture === '') return true;
    for (const pair of capture.split(separator)) {
      const eq = pair.indexOf('=');
      const key = decode(eq === -1 ? pair : pair.slice(0, eq));
      const value = decode(eq === -1 ? '' : pair.slice(eq + 1));
      if (key === undefined || value === undefined) return false;
      const spec = wanted.get(key);
      if (!spec) continue;
      if (spec.explode) {
        const previous = into[key];
        into[key] = Array.isArray(previous) ? [...previous, value] : [value];
      } else {
        into[key] = value;
      }
    }
    return true;
  };
}

/** How an expression's captured text becomes its variables ('.', '/' and ';' captures keep their lead). */
function extractorOf(expression: Expression): Extractor {
  switch (expression.operator) {
    case '':
      return listExtractor(expression, ',', false);
    case '+':
    case '#':
      return listExtractor(expression, ',', true);
    case '.':
    case '/': {
      const list = listExtractor(expression, expression.operator, expression.operator === '.');
      return (capture, into) => list(capture?.slice(1), into);
    }
    case ';': {
      const named = namedExtractor(expression, ';');
      return (capture, into) => named(capture?.slice(1), into);
    }
    default:
      // '?' and '&' both read query parameters; a later '&' expression continues the same query.
      return namedExtractor(expression, '&');
  }
}

/**
 * A compiled URI template. Matching takes time linear in the URI's length, whatever it holds
 * (`template-matcher.ts` says how, and which variables a URI with several readings yields).
 *
 * @example
 * const t = UriTemplate.parse('notes://{id}');
 * t.match('notes://42'); // { id: '42' }
 */
export class UriTemplate {
  private constructor(
    readonly template: string,
    readonly variableNames: readonly string[],
    private readonly matcher: TemplateMatcher,
    private readonly extractors: readonly Extractor[],
  ) {}

  /** Parses a template; throws `UriTemplateSyntaxError` when it is malformed. */
  static parse(template: string): UriTemplate {
    const pieces: Piece[] = [];
    const extractors: Extractor[] = [];
    const names: string[] = [];
    let index = 0;
    while (index < template.length) {
      const open = template.indexOf('{', index);
      const close = template.indexOf('}', index);
      if (close !== -1 && (open === -1 || close < open)) throw new UriTemplateSyntaxError(`unmatched "}" in "${template}"`);
      if (open === -1) {
        pieces.push(literalPiece(template.slice(index)));
        break;
      }
      if (open > index) pieces.push(literalPiece(template.slice(index, open)));
      if (close === -1) throw new UriTemplateSyntaxError(`unclosed "{" in "${template}"`);
      const body = template.slice(open + 1, close);
      if (body.includes('{')) throw new UriTemplateSyntaxError(`nested "{" in "${template}"`);
      const expression = parseExpression(body, template);
      for (const spec of expression.variables) {
        if (names.includes(spec.name)) throw new UriTemplateSyntaxError(`variable "${spec.name}" appears twice in "${template}"`);
        names.push(spec.name);
      }
      pieces.push(expressionPiece(expression.operator));
      extractors.push(extractorOf(expression));
      index = close + 1;
    }
    if (/\s/.test(template)) throw new UriTemplateSyntaxError(`whitespace in "${template}"`);
    return new UriTemplate(template, names, new TemplateMatcher(pieces), extractors);
  }

  /** The variables of `uri` when it matches, else `undefined`. */
  match(uri: string): Record<string, string | string[]> | undefined {
    return this.measuredMatch(uri, { steps: 0 });
  }

  /** @internal `match`, adding its work to `meter.steps` (the tests that prove it linear). */
  measuredMatch(uri: string, meter: MatchMeter): Record<string, string | string[]> | undefined {
    const captures = this.matcher.captures(uri, meter);
    if (!captures) return undefined;
    const variables: Record<string, string | string[]> = {};
    for (let i = 0; i < this.extractors.length; i++) {
      if (!this.extractors[i](captures[i], variables)) return undefined;
    }
    return variables;
  }

  /** @internal Each expression's captured text, as `match` reads it; for the tests that compare it with the old regex. */
  captures(uri: string, meter: MatchMeter = { steps: 0 }): Array<string | undefined> | undefined {
    return this.matcher.captures(uri, meter);
  }
}
