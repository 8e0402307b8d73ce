import { canonicalJson } from '../contract/canonical-json';
import { getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';

/**
 * Edits of one member of a JSON (or JSONC) file that touch no other byte: the text around the
 * edit, comments, order, spacing and line ends stay as they were, so a configuration file that
 * a person or another tool keeps does not change under them. jsonc-parser only reads; the edits
 * are made here, with the file's own indentation and line end.
 */

/** The file could not be read as the client reads it: nothing is written. */
export class JsonFileError extends Error {}

export interface JsonSyntax {
  /** Comments and trailing commas are allowed (JSONC, as VS Code reads its files). */
  comments: boolean;
}

/** A file's whole text read into a tree; refused when the client would refuse it, or when its top is not an object. */
function readTree(text: string, syntax: JsonSyntax): Node {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: syntax.comments, disallowComments: !syntax.comments, allowEmptyContent: false });
  if (errors.length > 0) {
    const { error, offset } = errors[0];
    const before = text.slice(0, offset).split('\n');
    throw new JsonFileError(`${printParseErrorCode(error)} at line ${before.length}, column ${before[before.length - 1].length + 1}`);
  }
  if (root?.type !== 'object') throw new JsonFileError('its top level is not a JSON object');
  return root;
}

/**
 * The member `name` of `object` (its property node), if any. A name given twice is refused: a
 * client reads only the last one, so an edit of either could not be trusted to do what it says.
 */
function memberNode(text: string, object: Node, name: string): Node | undefined {
  const found = (object.children ?? []).filter((member) => member.children![0].value === name);
  if (found.length > 1) {
    const lines = found.map((member) => text.slice(0, member.offset).split('\n').length);
    throw new JsonFileError(`it has ${JSON.stringify(name)} ${found.length} times (lines ${lines.join(', ')}), and a client reads only the last`);
  }
  return found[0];
}

/** The value node of member `name` of `object`, if any (see memberNode). */
const memberValue = (text: string, object: Node, name: string): Node | undefined => memberNode(text, object, name)?.children![1];

const eolOf = (text: string): string => (text.includes('\r\n') ? '\r\n' : '\n');

/** The file's indentation step: that of its first indented line, else two spaces. */
function indentUnit(text: string): string {
  return /^([ \t]+)\S/m.exec(text)?.[1] ?? '  ';
}

/** The whitespace that starts the line `offset` is on. */
function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))![0];
}

/** `offset` is the first thing on its line. */
function startsLine(text: string, offset: number): boolean {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*$/.test(text.slice(start, offset));
}

/** `value` as JSON laid out like the file, its lines after the first at `indent`. */
function render(value: unknown, indent: string, unit: string, eol: string): string {
  return JSON.stringify(value, null, unit).replace(/\n/g, `${eol}${indent}`);
}

/** Inserts `"name": value` as the last member of `object`. */
function insertMember(text: string, object: Node, name: string, value: unknown): string {
  const eol = eolOf(text);
  const unit = indentUnit(text);
  const members = object.children ?? [];
  const last = members[members.length - 1];
  if (last) {
    const indent = startsLine(text, last.offset) ? lineIndent(text, last.offset) : lineIndent(text, object.offset) + unit;
    const member = `${JSON.stringify(name)}: ${render(value, indent, unit, eol)}`;
    const end = last.offset + last.length;
    const after = nextSignificant(text, end);
    if (text[after] === ',') {
      // A trailing comma (JSONC): the new member goes after it, with one of its own.
      const at = commentsToLineEnd(text, after + 1) ?? after + 1;
      return `${text.slice(0, at)}${eol}${indent}${member},${text.slice(at)}`;
    }
    // A comment on the last member's line stays on that line, after its new comma.
    const at = commentsToLineEnd(text, end);
    if (at !== undefined && at > end) return `${text.slice(0, end)},${text.slice(end, at)}${eol}${indent}${member}${text.slice(at)}`;
    return `${text.slice(0, end)},${eol}${indent}${member}${text.slice(end)}`;
  }
  const outer = lineIndent(text, object.offset);
  const inner = outer + unit;
  const open = object.offset + 1;
  const close = object.offset + object.length - 1;
  const member = `${eol}${inner}${JSON.stringify(name)}: ${render(value, inner, unit, eol)}`;
  // An empty object with only blanks inside is laid out anew; one holding comments keeps them after the member.
  return /^\s*$/.test(text.slice(open, close))
    ? `${text.slice(0, open)}${member}${eol}${outer}${text.slice(close)}`
    : `${text.slice(0, open)}${member}${text.slice(open)}`;
}

/**
 * Where the line break that ends `from`'s line starts, when only blanks and comments that end on
 * that line stand before it; else undefined (more JSON follows on the line, or a comment runs on).
 */
function commentsToLineEnd(text: string, from: number): number | undefined {
  for (let at = from; at < text.length;) {
    if (text[at] === '\n') return text[at - 1] === '\r' ? at - 1 : at;
    if (text[at] === ' ' || text[at] === '\t' || text[at] === '\r') at++;
    else if (text.startsWith('//', at)) at = text.indexOf('\n', at) < 0 ? text.length : text.indexOf('\n', at);
    else if (text.startsWith('/*', at)) {
      const close = text.indexOf('*/', at + 2);
      if (close < 0 || text.slice(at, close).includes('\n')) return undefined;
      at = close + 2;
    } else return undefined;
  }
  return undefined;
}

/** Where the line break before `offset` starts, when only blanks stand between them; else `offset`. */
function lineBreakBefore(text: string, offset: number): number {
  if (!startsLine(text, offset)) return offset;
  const lineStart = text.lastIndexOf('\n', offset - 1);
  if (lineStart < 0) return offset;
  return text[lineStart - 1] === '\r' ? lineStart - 1 : lineStart;
}

/** The next character after `from` that is not blank or inside a comment (comments are skipped). */
function nextSignificant(text: string, from: number): number {
  for (let at = from; at < text.length;) {
    if (/\s/.test(text[at])) at++;
    else if (text.startsWith('//', at)) at = text.indexOf('\n', at) < 0 ? text.length : text.indexOf('\n', at);
    else if (text.startsWith('/*', at)) at = text.indexOf('*/', at + 2) < 0 ? text.length : text.indexOf('*/', at + 2) + 2;
    else return at;
  }
  return text.length;
}

/** Removes member `property` (a property node) of `object`, its comma and its line; comments stay. */
function removeMember(text: string, object: Node, property: Node): string {
  const members = object.children!;
  const index = members.indexOf(property);
  const end = property.offset + property.length;
  const after = nextSignificant(text, end);
  const commaAfter = text[after] === ',';
  const open = object.offset + 1;
  const close = object.offset + object.length - 1;
  if (members.length === 1) {
    const rest = text.slice(open, property.offset) + text.slice(commaAfter ? after + 1 : end, close);
    if (/^\s*$/.test(rest)) return text.slice(0, open) + text.slice(close);
  }
  const from = lineBreakBefore(text, property.offset);
  if (commaAfter || index === 0) return text.slice(0, from) + text.slice(commaAfter ? after + 1 : end);
  // The last member: the comma that separated it from the one before goes with it.
  const previous = members[index - 1];
  const comma = nextSignificant(text, previous.offset + previous.length);
  return text.slice(0, comma) + text.slice(comma + 1, from) + text.slice(end);
}

/** A leading byte order mark (an editor on Windows may write one): kept, and not read as JSON. */
const byteOrderMark = (text: string): string => (text.startsWith('\uFEFF') ? '\uFEFF' : '');

/** What `setServer` did; `taken`: another entry has that name and `replaceable` refused it (nothing changed). */
export type SetOutcome = 'added' | 'replaced' | 'unchanged' | 'taken';

/**
 * `text` with `value` at `container.name` (`mcpServers.notes`), the container made if missing.
 * An equal value already there changes nothing (`unchanged`); a different one is replaced in place
 * when `replaceable` says so (default: always), else left alone (`taken`).
 *
 * @throws JsonFileError when the text does not parse as `syntax` says, or its parts are not objects.
 */
export function setServer(
  text: string,
  container: string,
  name: string,
  value: unknown,
  syntax: JsonSyntax,
  replaceable: (existing: unknown) => boolean = () => true,
): { text: string; outcome: SetOutcome } {
  const bom = byteOrderMark(text);
  const set = setInText(text.slice(bom.length), container, name, value, syntax, replaceable);
  return { text: bom + set.text, outcome: set.outcome };
}

function setInText(
  text: string,
  container: string,
  name: string,
  value: unknown,
  syntax: JsonSyntax,
  replaceable: (existing: unknown) => boolean,
): { text: string; outcome: SetOutcome } {
  if (/^\s*$/.test(text)) {
    const eol = eolOf(text);
    return { text: `${JSON.stringify({ [container]: { [name]: value } }, null, 2).replace(/\n/g, eol)}${eol}`, outcome: 'added' };
  }
  const root = readTree(text, syntax);
  const servers = memberValue(text, root, container);
  if (!servers) return { text: insertMember(text, root, container, { [name]: value }), outcome: 'added' };
  if (servers.type !== 'object') throw new JsonFileError(`its "${container}" is not an object`);
  const existing = memberValue(text, servers, name);
  if (!existing) return { text: insertMember(text, servers, name, value), outcome: 'added' };
  // Compared as JSON (key order aside): the parser's objects have no prototype.
  const current: unknown = getNodeValue(existing);
  if (canonicalJson(current) === canonicalJson(value)) return { text, outcome: 'unchanged' };
  if (!replaceable(current)) return { text, outcome: 'taken' };
  const indent = lineIndent(text, existing.parent!.offset);
  const replaced = render(value, indent, indentUnit(text), eolOf(text));
  return { text: text.slice(0, existing.offset) + replaced + text.slice(existing.offset + existing.length), outcome: 'replaced' };
}

/**
 * `text` without `container.name`; undefined when there is no such member.
 *
 * @throws JsonFileError when the text does not parse as `syntax` says.
 */
export function deleteServer(text: string, container: string, name: string, syntax: JsonSyntax): string | undefined {
  const bom = byteOrderMark(text);
  const removed = deleteInText(text.slice(bom.length), container, name, syntax);
  return removed === undefined ? undefined : bom + removed;
}

function deleteInText(text: string, container: string, name: string, syntax: JsonSyntax): string | undefined {
  if (/^\s*$/.test(text)) return undefined;
  const root = readTree(text, syntax);
  const servers = memberValue(text, root, container);
  if (servers?.type !== 'object') return undefined;
  const property = memberNode(text, servers, name);
  return property ? removeMember(text, servers, property) : undefined;
}

/** The server names under `container`, for a hint. */
export function serverNames(text: string, container: string, syntax: JsonSyntax): string[] {
  const json = text.slice(byteOrderMark(text).length);
  if (/^\s*$/.test(json)) return [];
  const servers = memberValue(json, readTree(json, syntax), container);
  return servers?.type === 'object' ? servers.children!.map((member) => String(member.children![0].value)) : [];
}
