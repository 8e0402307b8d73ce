/**
 * A numeric request id that a JavaScript number cannot hold exactly (beyond 2^53, or written with
 * more precision than a double keeps). JSON-RPC lets a client pick any number; the answer must
 * carry the same digits or the client cannot match it, so the id travels as the text the client
 * wrote. `value` is the nearest double, used wherever ids are compared (cancellation names the
 * request by a number parsed the ordinary way).
 *
 * @example
 * // {"jsonrpc":"2.0","id":9223372036854775807,"method":"ping"} is answered with the same digits.
 * if (ExactNumberId.is(ctx.requestId)) console.error(`big id ${ctx.requestId.digits}`);
 */
export class ExactNumberId {
  readonly value: number;

  constructor(readonly digits: string) {
    this.value = Number(digits);
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

/** What an id is compared by: an exact id by its nearest double, so `notifications/cancelled` still finds it. */
export function idKey(id: string | number | ExactNumberId): string | number {
  return typeof id === 'object' ? id.value : id;
}

/** True for a parsed id that lost digits on the way through `JSON.parse`. */
export function isInexactId(id: unknown): id is number {
  return typeof id === 'number' && !Number.isSafeInteger(id);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Replaces every top-level numeric `id` that `JSON.parse` rounded (in one message, or in each
 * element of a batch) by an `ExactNumberId` holding the literal from `text`. Only called when such
 * an id was seen, so ordinary messages never pay for the scan. `text` is valid JSON (it parsed).
 */
export function restoreExactIds(text: string, parsed: unknown): void {
  const scanner = new TopLevelIdScanner(text);
  if (Array.isArray(parsed)) {
    const literals = scanner.arrayElementIds();
    parsed.forEach((element, index) => replaceId(element, literals[index]));
  } else {
    replaceId(parsed, scanner.objectId());
  }
}

function replaceId(message: unknown, literal: string | undefined): void {
  if (literal === undefined || typeof message !== 'object' || message === null) return;
  const record = message as Record<string, unknown>;
  if (isInexactId(record.id)) record.id = new ExactNumberId(literal);
}

/** Walks valid JSON text just deep enough to read the raw `id` of one or more top-level objects. */
class TopLevelIdScanner {
  private at = 0;

  constructor(private readonly text: string) {}

  /** The raw numeric `id` of the root object (the last one, as JSON.parse keeps the last duplicate). */
  objectId(): string | undefined {
    this.space();
    return this.text.charCodeAt(this.at) === 0x7b ? this.objectMembers() : undefined;
  }

  /** The raw numeric `id` of each element of the root array (undefined where there is none). */
  arrayElementIds(): Array<string | undefined> {
    const ids: Array<string | undefined> = [];
    this.space();
    if (this.text[this.at] !== '[') return ids;
    this.at++;
    this.space();
    if (this.text[this.at] === ']') return ids;
    for (;;) {
      this.space();
      ids.push(this.text[this.at] === '{' ? this.objectMembers() : (this.skipValue(), undefined));
      this.space();
      if (this.text[this.at++] !== ',') return ids;
    }
  }

  // At '{': reads the members, returns the last numeric id literal, leaves `at` after '}'.
  private objectMembers(): string | undefined {
    let id: string | undefined;
    this.at++;
    this.space();
    if (this.text[this.at] === '}') {
      this.at++;
      return undefined;
    }
    for (;;) {
      this.space();
      const keyStart = this.at;
      this.skipString();
      const isId = this.at - keyStart === 4 && this.text.startsWith('"id"', keyStart);
      this.space();
      this.at++; // ':'
      this.space();
      const valueStart = this.at;
      this.skipValue();
      const first = this.text.charCodeAt(valueStart);
      if (isId && (first === 0x2d || (first >= 0x30 && first <= 0x39))) id = this.text.slice(valueStart, this.at);
      else if (isId) id = undefined;
      this.space();
      if (this.text[this.at++] !== ',') return id;
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
