import { clip } from '../errors/clip';
import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import { backtrackingRisk, MAX_WAYS, type RegexRisk } from './regex-safety';

// Keywords whose values are data, not schemas: a "pattern" inside them is not a regex.
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);
const checked = new WeakSet<object>();

/**
 * Refuses, at start-up, a regex a crafted value can make run for long: exponential time (a
 * repetition that reads the same text in more than one way: `(a+)+`, `(a|a)*`, `(\w+\s?)*`),
 * counted copies that share one text out in more than 1 000 ways (`(?:\w{1,10}\s?){1,10}`), or
 * cubic time and beyond (three neighbouring repetitions that share a text: `^a*a*a*b$`). `where`
 * names it in the error.
 *
 * @throws DefinitionError `MCPKIT_ERR_UNSAFE_PATTERN`
 * @example
 * checkPattern('^[a-z0-9]+(?:-[a-z0-9]+)*$', '', '@Matches on Input.slug'); // passes
 */
export function checkPattern(source: string, flags: string, where: string): void {
  const risk = backtrackingRisk(source, flags);
  if (risk === undefined) return;
  throw new DefinitionError(DefinitionErrorCode.UNSAFE_PATTERN, `${where} has the pattern /${clip(source)}/${flags}, ${why(risk)}`, [
    'Make every repetition read a text one way only: a repeated group must not start or end with what a repetition inside it reads, and its alternatives must not read the same text. ' +
      '^[a-z0-9]+(?:-[a-z0-9]+)*$ rather than ^([a-z0-9]+-?)+$; (?:\\s+\\w+)* rather than (\\w+\\s?)*; (?:a|b) rather than (?:a|[ab]).',
    'Let a separator, not an optional one, part neighbouring repetitions and counted copies: ^\\w{1,10}(?:\\s\\w{1,10}){0,9}$ rather than ^(?:\\w{1,10}\\s?){1,10}$; ' +
      '^[A-Z0-9]+(?:-[A-Z0-9]+){0,2}$ rather than ^[A-Z0-9]+-?[A-Z0-9]+-?[A-Z0-9]+$; start with ^.',
    'Or check the value in the handler, after bounding its length (there is no option to let a pattern through).',
    'docs/validation.md, "Patterns run on client input", says what passes.',
  ]);
}

const POWERS = ['', '', 'square', 'cube'];

/** The rest of the problem's sentence: what the regex does with a crafted value. */
function why(risk: NonNullable<RegexRisk>): string {
  const meanwhile = 'and the server answers nothing else meanwhile.';
  switch (risk.kind) {
    case 'too-large':
      return 'too large to check for slow backtracking.';
    case 'ambiguous-repetition':
      return `whose repetition ${risk.repetition} can read the same text in more than one way: a crafted value of a few dozen characters makes it run for seconds or hours, ${meanwhile}`;
    case 'too-many-ways': {
      const what =
        risk.repetition === undefined
          ? 'whose counted repetitions can share one text out'
          : `whose counted repetition ${risk.repetition} can share one text out among its copies`;
      return `${what} in more than ${MAX_WAYS} ways: a crafted value of a few dozen characters makes it run for seconds or minutes, ${meanwhile}`;
    }
    case 'polynomial': {
      const names = risk.repetitions;
      const listed = `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
      const power = POWERS[risk.degree] === undefined ? `${risk.degree}th power` : POWERS[risk.degree];
      const everyStart = risk.everyStart
        ? 'which is tried from every position of the value (it does not start with ^, or it is a lookaround past the start), and '
        : '';
      return (
        `${everyStart}whose repetitions ${listed} can share one text out among them: ` +
        `the time to reject a value grows as the ${power} of its length (n^${risk.degree}), a few thousand characters take seconds, ${meanwhile}`
      );
    }
  }
}

/**
 * `checkPattern` for every `pattern` and `patternProperties` key of a JSON Schema (ajv compiles
 * them with the u flag); each schema object is checked once.
 *
 * @throws DefinitionError `MCPKIT_ERR_UNSAFE_PATTERN`, naming the keyword's JSON pointer.
 */
export function checkSchemaPatterns(schema: unknown, where: string, pointer = '#'): void {
  if (typeof schema !== 'object' || schema === null || checked.has(schema)) return;
  checked.add(schema);
  try {
    if (Array.isArray(schema)) {
      schema.forEach((item, index) => checkSchemaPatterns(item, where, `${pointer}/${index}`));
      return;
    }
    const record = schema as Record<string, unknown>;
    for (const [key, value] of Object.entries(record)) {
      if (DATA_KEYWORDS.has(key)) continue;
      if (key === 'pattern' && typeof value === 'string') checkPattern(value, 'u', `${where} (at ${pointer}/pattern)`);
      else if (key === 'patternProperties' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
        for (const name of Object.keys(value)) checkPattern(name, 'u', `${where} (a key of ${pointer}/patternProperties)`);
      }
      checkSchemaPatterns(value, where, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    }
  } catch (error) {
    // Marked before its parts were checked (a schema may hold itself): one that failed is not checked.
    checked.delete(schema);
    throw error;
  }
}
