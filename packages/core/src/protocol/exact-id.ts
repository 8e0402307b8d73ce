/**
 * A numeric request id that a JavaScript number cannot hold exactly (beyond 2^53, or written with
 * more precision than a double keeps). JSON-RPC lets a client pick any number; the answer must
 * carry the same digits or the client cannot match it, so the id travels as the text the client
 * wrote; ids are compared by those digits (a cancellation's `requestId` is kept the same way).
 *
 * @example
 * // {"jsonrpc":"2.0","id":9223372036854775807,"method":"ping"} is answered with the same digits.
 * if (ExactNumberId.is(ctx.requestId)) console.error(`big id ${ctx.requestId.digits}`);
 */
export class ExactNumberId {
  constructor(readonly digits: string) {
    Object.freeze(this);
  }

  static is(value: unknown): value is ExactNumberId {
    return value instanceof ExactNumberId;
  }

  /** In logs and error messages the id reads as the client wrote it. */
  toJSON(): string {
    return this.digits;
  }

  toString(): string {
    return this.digits;
  }
}

/**
 * What an id is compared by: an exact id by its digits (9223372036854775806 and …807 are two
 * requests), under a prefix no sane string id starts with.
 */
export function idKey(id: string | number | ExactNumberId): string | number {
  return typeof id === 'object' ? `\u0000#${id.digits}` : id;
}

/** True for a parsed id that lost digits on the way through `JSON.parse`. */
export function isInexactId(id: unknown): id is number {
  return typeof id === 'number' && !Number.isSafeInteger(id);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** True for a message whose `id`, or cancelled `params.requestId`, lost digits in `JSON.parse`. */
export function hasInexactId(message: unknown): boolean {
  if (typeof message !== 'object' || message === null) return false;
  const record = message as { id?: unknown; params?: { requestId?: unknown } };
  return isInexactId(record.id) || (typeof record.params === 'object' && record.params !== null && isInexactId(record.params.requestId));
}

/**
 * Replaces every top-level numeric `id` that `JSON.parse` rounded (in one message, or in each
 * element of a batch), and a rounded `params.requestId` (what `notifications/cancelled` names),
 * by an `ExactNumberId` holding the literal from `text`. Only called when such an id was seen, so
 * ordinary messages never pay for the scan. `text` is valid JSON (it parsed).
 */
export function restoreExactIds(text: string, parsed: unknown): void {
  const scanner = new TopLevelIdScanner(text);
  if (Array.isArray(parsed)) {
    const literals = scanner.arrayElementIds();
    parsed.forEach((element, index) => replaceIds(element, literals[index]));
  } else {
    replaceIds(parsed, scanner.objectId());
  }
}

function replaceIds(message: unknown, literals: IdLiterals | undefined): void {
  if (literals === undefined || typeof message !== 'object' || message === null) return;
  const record = message as Record<string, unknown>;
  if (literals.id !== undefined && isInexactId(record.id)) record.id = new ExactNumberId(literals.id);
  const params = record.params as Record<string, unknown> | undefined;
  if (literals.requestId !== undefined && typeof params === 'object' && params !== null && isInexactId(params.requestId))
    params.requestId = new ExactNumberId(literals.requestId);
}

/** The raw number literals of one message's `id` and `params.requestId`. */
interface IdLiterals {
  id?: string;
  requestId?: string;
}

/** Walks valid JSON text just deep enough to read the raw `id` of one or more top-level objects. */
class TopLevelIdScanner {
  private at = 0;

  constructor(private readonly text: string) {}

  /** The raw numeric ids of the root object (the last ones, as JSON.parse keeps the last duplicate). */
  objectId(): IdLiterals | undefined {
    this.space();
    return this.text.charCodeAt(this.at) === 0x7b ? this.objectMembers('id') : undefined;
  }

  /** The raw numeric ids of each element of the root array (undefined where there are none). */
  arrayElementIds(): Array<IdLiterals | undefined> {
    const ids: Array<IdLiterals | undefined> = [];
    this.space();
    if (this.text[this.at] !== '[') return ids;
    this.at++;
    this.space();
    if (this.text[this.at] === ']') return ids;
    for (;;) {
      this.space();
      ids.push(this.text[this.at] === '{' ? this.objectMembers('id') : (this.skipValue(), undefined));
      this.space();
      if (this.text[this.at++] !== ',') return ids;
    }
  }

  /**
   * At '{': reads the members and returns the last number literal of `key` (`id` at the top, then
   * `requestId` inside `params`); leaves `at` after '}'.
   */
  private objectMembers(key: 'id' | 'requestId'): IdLiterals {
    const found: IdLiterals = {};
    const quoted = `"${key}"`;
    this.at++;
    this.space();
    if (this.text[this.at] === '}') {
      this.at++;
      return found;
    }
    for (;;) {
      this.space();
      const keyStart = this.at;
      this.skipString();
      const keyLength = this.at - keyStart;
      const isTarget = keyLength === quoted.length && this.text.startsWith(quoted, keyStart);
      const isParams = key === 'id' && keyLength === 8 && this.text.startsWith('"params"', keyStart);
      this.space();
      this.at++; // ':'
      this.space();
      const valueStart = this.at;
      if (isParams && this.text[this.at] === '{') {
        found.requestId = this.objectMembers('requestId').requestId;
      } else {
        this.skipValue();
        if (isTarget) {
          const first = this.text.charCodeAt(valueStart);
          found[key] = first === 0x2d || (first >= 0x30 && first <= 0x39) ? this.text.slice(valueStart, this.at) : undefined;
        }
      }
      this.space();
      if (this.text[this.at++] !== ',') return found;
    }
  }

  private skipValue(): void {
    const c = this.text[this.at];
    if (c === '"') return this.skipString();
    if (c === '{' || c === '[') return this.skipNested();
    // A number or a literal: runs to the next delimiter.
    while (this.at < this.text.length && !',}] \t\r\n'.includes(this.text[this.at])) this.at++;
  }

  // Iterative, so a deeply nested value cannot overflow the stack.
  private skipNested(): void {
    let depth = 0;
    do {
      const c = this.text.charCodeAt(this.at);
      if (c === QUOTE) {
        this.skipString();
        continue;
      }
      if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) depth--;
      this.at++;
    } while (depth > 0 && this.at < this.text.length);
  }

  private skipString(): void {
    this.at++;
    while (this.at < this.text.length) {
      const c = this.text.charCodeAt(this.at++);
      if (c === BACKSLASH) this.at++;
      else if (c === QUOTE) return;
    }
  }

  private space(): void {
    while (this.at < this.text.length && ' \t\r\n'.includes(this.text[this.at])) this.at++;
  }
}
