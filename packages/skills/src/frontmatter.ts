import { parse } from 'yaml';

/** A `SKILL.md`'s frontmatter as the author wrote it: `name` and `description` always there. */
export interface SkillFrontmatter {
  name: string;
  description: string;
  [key: string]: unknown;
}

// Agent Skills: lowercase letters and digits, single hyphens between, at most 64.
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const OPENING = /^---\r?\n/;
const CLOSING = /\r?\n---[ \t]*(?:\r?\n|$)/;

// A frontmatter is a few hundred bytes; past this, as JSON, it is a mistake or aliases expanding.
const MAX_JSON = 64 * 1024;

/**
 * The frontmatter as the JSON every skills/list page sends. An alias inside its own anchor
 * (`a: &x [*x]`) is a cycle JSON cannot hold, and would fail the whole list rather than this
 * skill; aliases repeating a long value (`l: [*big, *big, …]`) may expand a small file a
 * hundredfold, so the text is counted as it is made and refused past MAX_JSON.
 */
function asJson(value: unknown): unknown {
  let size = 0;
  const count = (key: string, item: unknown): unknown => {
    size += key.length + (typeof item === 'string' ? item.length : 8);
    if (size > MAX_JSON) throw new RangeError(`SKILL.md frontmatter is larger than ${MAX_JSON / 1024} KiB as JSON`);
    return item;
  };
  try {
    return JSON.parse(JSON.stringify(value, count)) as unknown;
  } catch (error) {
    if (error instanceof RangeError) throw new Error(error.message);
    throw new Error('SKILL.md frontmatter refers to itself (a YAML alias inside its own anchor)');
  }
}

/**
 * Reads the YAML frontmatter of a `SKILL.md` and checks it by the Agent Skills rules, `name`
 * being the skill's folder name. Returns the object verbatim, or throws with the problem.
 */
export function readFrontmatter(text: string, folderName: string): SkillFrontmatter {
  const body = text.startsWith('\ufeff') ? text.slice(1) : text;
  if (!OPENING.test(body)) throw new Error('SKILL.md must begin with YAML frontmatter (a --- line)');
  const rest = body.replace(OPENING, '');
  const end = CLOSING.exec(rest);
  if (end === null) throw new Error('SKILL.md frontmatter has no closing --- line');
  let value: unknown;
  try {
    value = parse(rest.slice(0, end.index), { maxAliasCount: 100 });
  } catch (error) {
    throw new Error(`SKILL.md frontmatter is not YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('SKILL.md frontmatter must be a mapping');
  value = asJson(value);
  const { name, description } = value as Record<string, unknown>;
  if (typeof name !== 'string' || name.length > 64 || !NAME.test(name))
    throw new Error('frontmatter "name" must be 1-64 lowercase letters, digits and single hyphens');
  if (name !== folderName) throw new Error(`frontmatter "name" (${name}) must equal the folder's name (${folderName})`);
  if (typeof description !== 'string' || description.length === 0 || [...description].length > 1024)
    throw new Error('frontmatter "description" must be a string of 1-1024 characters');
  return value as SkillFrontmatter;
}
