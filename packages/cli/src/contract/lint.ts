import type { McpTool } from '@mcpkit/core';
import { MANIFEST_ERAS, type Manifest } from './manifest';
import { isSchemaObject, SchemaReader, typeSet } from './schema-view';
import type { TokenReport } from './token-count';

/** How much a lint finding matters: `error` fails `mcpkit lint`; `off` turns a rule off. */
export type LintSeverity = 'error' | 'warn' | 'off';

/** A rule's setting in the lint config: its severity, or its severity and options. */
export type LintRuleSetting = LintSeverity | ({ severity?: LintSeverity } & Record<string, unknown>);

/** The lint config (`"mcpkit": { "lint": … }` in package.json, or mcpkit-lint.json). */
export interface LintConfig {
  rules?: Record<string, LintRuleSetting>;
  /** Fail (`token-budget`) when an era's `tools/list` and instructions cost more tokens than this. */
  budget?: number;
  tokenizer?: 'o200k_base' | 'cl100k_base';
}

/** The rules of `mcpkit lint`: default severity, options and the fix each finding suggests (docs/contract.md). */
export const LINT_RULES = {
  'tool-description-missing': {
    severity: 'error',
    options: {},
    summary: 'a tool without a description',
    fix: 'Say what the tool does, when to use it and what it returns: @Tool({ description }).',
  },
  'field-description-missing': {
    severity: 'warn',
    options: {},
    summary: 'an input field or prompt argument without a description',
    fix: "Describe the field for the model: @Field({ description }) or the raw schema's description.",
  },
  'description-too-short': {
    severity: 'warn',
    options: { min: 20 },
    summary: 'a tool description shorter than `min` characters',
    fix: 'A model picks tools by their descriptions: say what it does and when to use it.',
  },
  'description-too-long': {
    severity: 'warn',
    options: { max: 1024 },
    summary: 'a tool or field description longer than `max` characters',
    fix: 'Every conversation pays for it: keep the description to what the model needs to choose and call the tool.',
  },
  'near-duplicate-descriptions': {
    severity: 'warn',
    options: { threshold: 0.85 },
    summary: 'tools whose descriptions are nearly the same (word-pair overlap ≥ `threshold`)',
    fix: 'Say how the tools differ, so a model can tell which one to call; or merge them.',
  },
  'name-style': {
    severity: 'warn',
    options: {},
    summary: "a tool name in another style than most of the app's (snake_case, camelCase, kebab-case …)",
    fix: 'Name every tool in one style.',
  },
  'enum-too-large': {
    severity: 'warn',
    options: { max: 50 },
    summary: 'an input enum of more than `max` values',
    fix: 'Take a string and check it in the handler, or offer completions: every value is in every conversation.',
  },
  'schema-too-deep': {
    severity: 'warn',
    options: { max: 5 },
    summary: 'an input schema nested deeper than `max` objects and arrays (a recursive one: without bound)',
    fix: 'Flatten the input: models fill deep structures poorly.',
  },
  'unbounded-string': {
    severity: 'warn',
    options: {},
    summary: 'a string input without maxLength (nor enum, const or a bounded format)',
    fix: 'Bound it (@MaxLength(n), maxLength): a client can make the server hold any amount otherwise. Also a safety hint.',
  },
  'unbounded-array': {
    severity: 'warn',
    options: {},
    summary: 'an array input without maxItems',
    fix: 'Bound it (@ArrayMaxSize(n), maxItems): a client can make the server hold any amount otherwise. Also a safety hint.',
  },
  'too-many-tools': {
    severity: 'warn',
    options: { max: 40 },
    summary: 'more than `max` tools',
    fix: 'Models choose worse among many tools, and each costs tokens: split the server, or enable tools when needed (createApp({ dynamic })).',
  },
  'token-budget': {
    severity: 'error',
    options: {},
    summary: "an era's tools/list and instructions cost more tokens than the budget (--budget, or lint.budget)",
    fix: 'Shorten descriptions and schemas (the per-tool table shows where the tokens go), or remove tools.',
  },
} as const satisfies Record<string, { severity: Exclude<LintSeverity, 'off'>; options: Record<string, number>; summary: string; fix: string }>;

/** A rule of `mcpkit lint`. */
export type LintRuleId = keyof typeof LINT_RULES;

/** One thing `mcpkit lint` found. */
export interface LintFinding {
  rule: LintRuleId;
  severity: 'error' | 'warn';
  /** What it is about: `tool <name>`, `prompt <name>`, `server`. */
  item: string;
  /** Where in it, e.g. `input /query`. */
  where?: string;
  message: string;
  fix: string;
}

/** What `lintManifest` returns. */
export interface LintReport {
  findings: LintFinding[];
  counts: { error: number; warn: number };
  tokens?: TokenReport;
}

/** Formats whose values have a bounded length. */
const BOUNDED_FORMATS = new Set(['date', 'time', 'date-time', 'uuid', 'ipv4', 'ipv6', 'duration']);

/** A rule's severity and options, from the defaults and the config. */
function settingOf(config: LintConfig, rule: LintRuleId): { severity: LintSeverity; options: Record<string, number> } {
  const given = config.rules?.[rule];
  const defaults = LINT_RULES[rule];
  if (given === undefined) return { severity: defaults.severity, options: { ...defaults.options } };
  if (typeof given === 'string') return { severity: given, options: { ...defaults.options } };
  const { severity, ...options } = given;
  return { severity: severity ?? defaults.severity, options: { ...defaults.options, ...(options as Record<string, number>) } };
}

/** Word pairs of a text, for similarity. */
function shingles(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const pairs = new Set<string>();
  for (let index = 0; index < words.length; index++) pairs.add(index + 1 < words.length ? `${words[index]} ${words[index + 1]}` : words[index]);
  return pairs;
}

function similarity(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const pair of a) if (b.has(pair)) shared++;
  return shared / (a.size + b.size - shared);
}

/** A tool name's style; undefined for a single lower-case word, which fits several. */
function nameStyle(name: string): string | undefined {
  if (/^[a-z][a-z0-9]*$/.test(name)) return undefined;
  if (/^[a-z][a-z0-9]*(_[a-z0-9]+)+$/.test(name)) return 'snake_case';
  if (/^[a-z][a-z0-9]*(-[a-z0-9]+)+$/.test(name)) return 'kebab-case';
  if (/^[a-z][a-z0-9]*([A-Z][a-z0-9]*)+$/.test(name)) return 'camelCase';
  if (/^[A-Z][a-z0-9]*([A-Z][a-z0-9]*)*$/.test(name)) return 'PascalCase';
  if (/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/.test(name)) return 'SCREAMING_SNAKE_CASE';
  if (/^[a-z][a-z0-9]*(\.[a-z0-9_]+)+$/.test(name)) return 'dotted.name';
  return 'mixed';
}

interface Place {
  path: string;
  depth: number;
}

/** How a schema node was reached: again on its own path (recursion), or as a branch of a union at the same place. */
interface Visit {
  cycle: boolean;
  branch: boolean;
}

/** Every sub-schema of a tool's input that a value can reach, with its path and nesting depth; refs followed once per path. */
function walkInput(schema: unknown, visit: (node: Record<string, unknown>, place: Place, how: Visit) => void): void {
  const reader = new SchemaReader(schema);
  const walk = (given: unknown, place: Place, trail: ReadonlySet<object>, branch: boolean) => {
    const node = reader.resolve(given);
    if (typeof node === 'boolean') return;
    if (trail.has(node)) {
      visit(node, place, { cycle: true, branch });
      return;
    }
    visit(node, place, { cycle: false, branch });
    const inner = new Set(trail).add(node);
    for (const alternative of reader.alternatives(node)) if (alternative !== node && isSchemaObject(alternative)) walk(alternative, place, inner, true);
    if (isSchemaObject(node.properties))
      for (const [name, child] of Object.entries(node.properties)) walk(child, { path: `${place.path}/${name}`, depth: place.depth + 1 }, inner, false);
    if (node.items !== undefined) walk(node.items, { path: `${place.path}/*`, depth: place.depth + 1 }, inner, false);
    if (isSchemaObject(node.additionalProperties)) walk(node.additionalProperties, { path: `${place.path}/*`, depth: place.depth + 1 }, inner, false);
  };
  walk(schema, { path: '', depth: 0 }, new Set(), false);
}

class Linter {
  readonly findings: LintFinding[] = [];

  constructor(private readonly config: LintConfig) {}

  /** The options of a rule that is on; undefined when it is off. */
  on(rule: LintRuleId): Record<string, number> | undefined {
    const { severity, options } = settingOf(this.config, rule);
    return severity === 'off' ? undefined : options;
  }

  private readonly seen = new Set<string>();

  add(rule: LintRuleId, item: string, message: string, where?: string): void {
    const { severity } = settingOf(this.config, rule);
    // The same field reached twice (in two branches of a union) is one finding.
    const key = `${rule}\0${item}\0${where ?? ''}\0${message}`;
    if (severity === 'off' || this.seen.has(key)) return;
    this.seen.add(key);
    this.findings.push({ rule, severity, item, ...(where !== undefined ? { where } : {}), message, fix: LINT_RULES[rule].fix });
  }

  tool(tool: McpTool): void {
    const item = `tool ${tool.name}`;
    this.toolDescription(item, tool.description?.trim() ?? '');
    const limits = { long: this.on('description-too-long'), enum: this.on('enum-too-large') };
    const depth = this.on('schema-too-deep');
    let deepest = 0;
    let recursive = false;
    walkInput(tool.inputSchema, (node, place, how) => {
      recursive ||= how.cycle;
      deepest = Math.max(deepest, place.depth);
      if (!how.cycle) this.inputNode(item, node, place, how.branch, limits);
    });
    if (depth && (recursive || deepest > depth.max))
      this.add('schema-too-deep', item, recursive ? 'recursive input: no bound on its depth' : `input nested ${deepest} deep (at most ${depth.max})`);
  }

  private toolDescription(item: string, description: string): void {
    if (description === '') this.add('tool-description-missing', item, 'no description');
    const short = this.on('description-too-short');
    if (short && description !== '' && description.length < short.min)
      this.add('description-too-short', item, `description of ${description.length} characters (at least ${short.min})`);
    const long = this.on('description-too-long');
    if (long && description.length > long.max) this.add('description-too-long', item, `description of ${description.length} characters (at most ${long.max})`);
  }

  /** The checks on one sub-schema of a tool's input (`limits`: the options of the rules that are on). */
  private inputNode(
    item: string,
    node: Record<string, unknown>,
    place: Place,
    branch: boolean,
    limits: { long: Record<string, number> | undefined; enum: Record<string, number> | undefined },
  ): void {
    const where = `input ${place.path || '/'}`;
    const values = Array.isArray(node.enum) ? node.enum : undefined;
    // A field: a named property (items and union branches are described by their field).
    if (!branch && place.path !== '' && !place.path.endsWith('/*') && typeof node.description !== 'string')
      this.add('field-description-missing', item, 'no description', where);
    if (limits.long && typeof node.description === 'string' && node.description.length > limits.long.max)
      this.add('description-too-long', item, `description of ${node.description.length} characters (at most ${limits.long.max})`, where);
    if (limits.enum && values && values.length > limits.enum.max)
      this.add('enum-too-large', item, `enum of ${values.length} values (at most ${limits.enum.max})`, where);
    this.unbounded(item, node, values !== undefined || 'const' in node, where);
  }

  /** A string or array a client may make as long as it likes (`bounded`: an enum or const already bounds it). */
  private unbounded(item: string, node: Record<string, unknown>, bounded: boolean, where: string): void {
    const types = typeSet(node);
    if (types?.has('string') && !bounded && typeof node.maxLength !== 'number' && !(typeof node.format === 'string' && BOUNDED_FORMATS.has(node.format)))
      this.add('unbounded-string', item, 'string without maxLength', where);
    if (types?.has('array') && typeof node.maxItems !== 'number') this.add('unbounded-array', item, 'array without maxItems', where);
  }

  tools(tools: readonly McpTool[]): void {
    for (const tool of tools) this.tool(tool);
    const many = this.on('too-many-tools');
    if (many && tools.length > many.max) this.add('too-many-tools', 'server', `${tools.length} tools (at most ${many.max})`);
    this.styles(tools);
    this.duplicates(tools);
  }

  private styles(tools: readonly McpTool[]): void {
    const counts = new Map<string, number>();
    for (const tool of tools) {
      const style = nameStyle(tool.name);
      if (style) counts.set(style, (counts.get(style) ?? 0) + 1);
    }
    if (counts.size < 2) return;
    // The most common style wins; a tie goes to the first in name order, so the result is stable.
    const [main] = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
    for (const tool of tools) {
      const style = nameStyle(tool.name);
      if (style && style !== main) this.add('name-style', `tool ${tool.name}`, `${style}, where most tools are ${main}`);
    }
  }

  /** One finding per group of tools whose descriptions are nearly the same. */
  private duplicates(tools: readonly McpTool[]): void {
    const rule = this.on('near-duplicate-descriptions');
    if (!rule) return;
    const described = tools.filter((tool) => (tool.description ?? '').trim() !== '');
    const sets = described.map((tool) => shingles(tool.description!));
    const group = described.map((_, index) => index);
    const root = (index: number): number => (group[index] === index ? index : (group[index] = root(group[index])));
    for (let a = 0; a < described.length; a++)
      for (let b = a + 1; b < described.length; b++) if (root(a) !== root(b) && similarity(sets[a], sets[b]) >= rule.threshold) group[root(b)] = root(a);
    const groups = new Map<number, string[]>();
    described.forEach((tool, index) => groups.set(root(index), [...(groups.get(root(index)) ?? []), tool.name]));
    for (const [first, ...others] of groups.values()) {
      if (others.length === 0) continue;
      const shown = others.length > 5 ? `${others.slice(0, 5).join(', ')} and ${others.length - 5} more` : others.join(', ');
      this.add('near-duplicate-descriptions', `tool ${first}`, `nearly the same description as ${shown}`);
    }
  }

  prompts(manifest: Manifest): void {
    for (const prompt of manifest.eras[MANIFEST_ERAS[0]].prompts)
      for (const argument of prompt.arguments ?? [])
        if (!argument.description) this.add('field-description-missing', `prompt ${prompt.name}`, 'no description', `argument ${argument.name}`);
  }

  budget(tokens: TokenReport | undefined): void {
    const budget = this.config.budget;
    if (budget === undefined || tokens === undefined) return;
    for (const era of tokens.eras)
      if (era.total > budget)
        this.add('token-budget', 'server', `${era.era}: ${era.total} tokens (${tokens.tokenizer}), over the budget of ${budget} by ${era.total - budget}`);
  }
}

/**
 * Lints a manifest: the rules of `LINT_RULES`, each at its configured severity, and the token
 * budget when the config has one (counted by the caller: `tokenReport`).
 *
 * @example
 * const manifest = buildManifest(app);
 * const report = lintManifest(manifest, { budget: 8000 }, tokenReport(manifest, tokenCounter(), 'o200k_base'));
 * if (report.counts.error > 0) process.exitCode = 1;
 */
export function lintManifest(manifest: Manifest, config: LintConfig = {}, tokens?: TokenReport): LintReport {
  const linter = new Linter(config);
  linter.tools(manifest.eras[MANIFEST_ERAS[0]].tools);
  linter.prompts(manifest);
  linter.budget(tokens);
  const counts = { error: 0, warn: 0 };
  for (const finding of linter.findings) counts[finding.severity]++;
  return { findings: linter.findings, counts, ...(tokens ? { tokens } : {}) };
}
