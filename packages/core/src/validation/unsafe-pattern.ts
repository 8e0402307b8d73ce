import { clip } from '../errors/clip';
import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import { exponentialRisk } from './regex-safety';

// Keywords whose values are data, not schemas: a "pattern" inside them is not a regex.
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);
const checked = new WeakSet<object>();

/**
 * Refuses, at start-up, a regex a crafted value can make run for exponential time (a repetition
 * that reads the same text in more than one way: `(a+)+`, `(a|a)*`, `(\w+\s?)*`). `where` names
 * it in the error.
 *
 * @throws DefinitionError `MCPKIT_ERR_UNSAFE_PATTERN`
 * @example
 * checkPattern('^[a-z0-9]+(?:-[a-z0-9]+)*$', '', '@Matches on Input.slug'); // passes
 */
export function checkPattern(source: string, flags: string, where: string): void {
  const risk = exponentialRisk(source, flags);
  if (risk === undefined) return;
  const shown = `/${clip(source)}/${flags}`;
  throw new DefinitionError(
    DefinitionErrorCode.UNSAFE_PATTERN,
    risk.kind === 'too-large'
      ? `${where} has the pattern ${shown}, too large to check for exponential backtracking.`
      : `${where} has the pattern ${shown}, whose repetition ${risk.repetition} can read the same text in more than one way: a crafted value of a few dozen characters makes it run for seconds or hours, and the server answers nothing else meanwhile.`,
    [
      'Make every repetition read a text one way only: a repeated group must not start or end with what a repetition inside it reads, and its alternatives must not read the same text. ' +
        '^[a-z0-9]+(?:-[a-z0-9]+)*$ rather than ^([a-z0-9]+-?)+$; (?:\\s+\\w+)* rather than (\\w+\\s?)*; (?:a|b) rather than (?:a|[ab]).',
      'Or check the value in the handler, after bounding its length.',
      'docs/validation.md, "Patterns run on client input", says what passes.',
    ],
  );
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
}
