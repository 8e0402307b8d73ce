/** What a filter sees of an operation. */
export interface OperationInfo {
  readonly operationId?: string;
  /** Upper-case HTTP method. */
  readonly method: string;
  readonly path: string;
  readonly tags: readonly string[];
}

/**
 * Picks operations for `include` and `exclude`:
 * - a string: an `operationId` (`'getPetById'`), or a method and a path pattern (`'GET /pet/*'`,
 *   `'* /store/**'`; `*` matches one path segment, `**` any number);
 * - `{ tag }`: the operations tagged so;
 * - a `RegExp`: tested against the `operationId`, and against `METHOD /path`;
 * - a function of the operation.
 */
export type OperationMatcher = string | RegExp | { tag: string } | ((operation: OperationInfo) => boolean);

const METHOD_AND_PATH = /^([A-Za-z]+|\*)\s+(\/.*)$/;

function pathPattern(pattern: string): RegExp {
  const body = pattern
    .split('/')
    .map((segment) => (segment === '**' ? '.*' : segment === '*' ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${body}$`);
}

/** Compiles a matcher once into a test. */
export function compileMatcher(matcher: OperationMatcher): (operation: OperationInfo) => boolean {
  if (typeof matcher === 'function') return matcher;
  if (matcher instanceof RegExp) {
    return (operation) => (operation.operationId !== undefined && matcher.test(operation.operationId)) || matcher.test(`${operation.method} ${operation.path}`);
  }
  if (typeof matcher === 'object' && matcher !== null && typeof matcher.tag === 'string') {
    const { tag } = matcher;
    return (operation) => operation.tags.includes(tag);
  }
  if (typeof matcher !== 'string')
    throw new TypeError(`fromOpenApi: an include or exclude entry must be a string, a RegExp, { tag } or a function; got ${String(matcher)}.`);
  const split = METHOD_AND_PATH.exec(matcher.trim());
  if (split === null) return (operation) => operation.operationId === matcher;
  const method = split[1]!.toUpperCase();
  const path = pathPattern(split[2]!);
  return (operation) => (method === '*' || operation.method === method) && path.test(operation.path);
}

/** Whether an operation is offered: listed by `include` (when given) and by no `exclude`. */
export function operationFilter(include?: readonly OperationMatcher[], exclude?: readonly OperationMatcher[]): (operation: OperationInfo) => boolean {
  const included = include?.map(compileMatcher);
  const excluded = (exclude ?? []).map(compileMatcher);
  return (operation) => (included === undefined || included.some((test) => test(operation))) && !excluded.some((test) => test(operation));
}
