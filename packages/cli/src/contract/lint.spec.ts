import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, defineTool, type DefineToolOptions, type JsonSchema } from '@mcpkit/core';
import { lintManifest, type LintConfig, type LintFinding } from './lint';
import { checkLintConfig, readLintConfig } from './lint-config';
import { buildManifest } from './manifest';
import { tokenReport } from './token-count';

const GOOD = 'Looks the word up in the dictionary and returns its meanings';

function lint(
  tools: Array<Partial<DefineToolOptions> & { name: string }>,
  config: LintConfig = {},
): Array<Omit<LintFinding, 'fix' | 'severity'> & { severity?: string }> {
  const app = createApp({ name: 'lint', version: '1.0.0', providers: tools.map((options) => defineTool(options, () => 'ok')) });
  return lintManifest(buildManifest(app), config).findings.map(({ fix, ...rest }) => {
    expect(fix.length).toBeGreaterThan(10);
    return rest;
  });
}

const object = (properties: Record<string, unknown>): JsonSchema => ({ type: 'object', properties });
const bounded = { type: 'string', maxLength: 10, description: 'A word' };

describe('lintManifest', () => {
  it('passes a tool that follows every rule', () => {
    expect(lint([{ name: 'define', description: GOOD, inputSchema: object({ word: bounded }) }])).toEqual([]);
  });

  it.each<[string, Array<Partial<DefineToolOptions> & { name: string }>, LintConfig, Array<Record<string, unknown>>]>([
    [
      'tool-description-missing',
      [{ name: 'define' }],
      {},
      [{ rule: 'tool-description-missing', severity: 'error', item: 'tool define', message: 'no description' }],
    ],
    [
      'field-description-missing',
      [{ name: 'define', description: GOOD, inputSchema: object({ word: { type: 'string', maxLength: 10 } }) }],
      {},
      [{ rule: 'field-description-missing', severity: 'warn', item: 'tool define', where: 'input /word', message: 'no description' }],
    ],
    [
      'description-too-short',
      [{ name: 'define', description: 'Defines' }],
      {},
      [{ rule: 'description-too-short', severity: 'warn', item: 'tool define', message: 'description of 7 characters (at least 20)' }],
    ],
    [
      'description-too-long, with its option',
      [{ name: 'define', description: GOOD }],
      { rules: { 'description-too-long': { max: 30 } } },
      [{ rule: 'description-too-long', severity: 'warn', item: 'tool define', message: 'description of 60 characters (at most 30)' }],
    ],
    [
      'near-duplicate-descriptions: one finding per group',
      [
        { name: 'define', description: GOOD },
        { name: 'define_again', description: `${GOOD}.` },
        { name: 'define_more', description: GOOD.toUpperCase() },
        { name: 'spell', description: 'Checks the spelling of a word and suggests corrections' },
      ],
      {},
      [{ rule: 'near-duplicate-descriptions', severity: 'warn', item: 'tool define', message: 'nearly the same description as define_again, define_more' }],
    ],
    [
      'name-style',
      [
        { name: 'look_up', description: GOOD },
        { name: 'spell_check', description: 'Checks the spelling of a word and suggests corrections' },
        { name: 'findSynonyms', description: 'Lists words that mean the same as the given one' },
      ],
      {},
      [{ rule: 'name-style', severity: 'warn', item: 'tool findSynonyms', message: 'camelCase, where most tools are snake_case' }],
    ],
    [
      'enum-too-large, with its option',
      [{ name: 'define', description: GOOD, inputSchema: object({ lang: { enum: ['en', 'fr', 'de'], description: 'Language' } }) }],
      { rules: { 'enum-too-large': { max: 2 } } },
      [{ rule: 'enum-too-large', severity: 'warn', item: 'tool define', where: 'input /lang', message: 'enum of 3 values (at most 2)' }],
    ],
    [
      'schema-too-deep, nested and recursive',
      [
        {
          name: 'nest',
          description: GOOD,
          inputSchema: object({ a: { type: 'object', description: 'A', properties: { b: { type: 'object', description: 'B', properties: { c: bounded } } } } }),
        },
        {
          name: 'tree',
          description: 'Takes a tree of words and returns it sorted',
          inputSchema: {
            type: 'object',
            properties: { root: { $ref: '#/$defs/Node' } },
            $defs: { Node: { type: 'object', description: 'A node', properties: { word: bounded, next: { $ref: '#/$defs/Node' } } } },
          },
        },
      ],
      { rules: { 'schema-too-deep': { max: 2 } } },
      [
        { rule: 'schema-too-deep', severity: 'warn', item: 'tool nest', message: 'input nested 3 deep (at most 2)' },
        { rule: 'schema-too-deep', severity: 'warn', item: 'tool tree', message: 'recursive input: no bound on its depth' },
      ],
    ],
    [
      'unbounded-string and unbounded-array (a bounded format or an enum is bounded)',
      [
        {
          name: 'define',
          description: GOOD,
          inputSchema: object({
            word: { type: 'string', description: 'A word' },
            day: { type: 'string', format: 'date', description: 'A day' },
            kind: { type: 'string', enum: ['noun', 'verb'], description: 'A kind' },
            words: { type: 'array', items: bounded, description: 'Words' },
          }),
        },
      ],
      {},
      [
        { rule: 'unbounded-string', severity: 'warn', item: 'tool define', where: 'input /word', message: 'string without maxLength' },
        { rule: 'unbounded-array', severity: 'warn', item: 'tool define', where: 'input /words', message: 'array without maxItems' },
      ],
    ],
    [
      'too-many-tools, with its option, at the severity the config gives',
      [
        { name: 'define', description: GOOD },
        { name: 'spell', description: 'Checks the spelling of a word and suggests corrections' },
      ],
      { rules: { 'too-many-tools': { severity: 'error', max: 1 } } },
      [{ rule: 'too-many-tools', severity: 'error', item: 'server', message: '2 tools (at most 1)' }],
    ],
    ['a rule turned off', [{ name: 'define', description: 'Defines' }], { rules: { 'description-too-short': 'off' } }, []],
  ])('%s', (_, tools, config, expected) => {
    expect(lint(tools, config)).toEqual(expected);
  });

  it('finds a prompt argument without a description', () => {
    const manifest = buildManifest(createApp({ name: 'lint', version: '1.0.0', providers: [] }));
    manifest.eras['2025-11-25'].prompts = [{ name: 'greet', arguments: [{ name: 'who', required: true }] }];
    expect(lintManifest(manifest).findings).toEqual([
      expect.objectContaining({ rule: 'field-description-missing', item: 'prompt greet', where: 'argument who' }),
    ]);
  });

  it('token-budget: an error per era over the budget, none within it', () => {
    const manifest = buildManifest(createApp({ name: 'lint', version: '1.0.0', providers: [defineTool({ name: 'define', description: GOOD }, () => 'ok')] }));
    const tokens = tokenReport(manifest, (text) => text.length, 'o200k_base');
    const over = lintManifest(manifest, { budget: tokens.total - 1 }, tokens);
    expect(over.findings.map((finding) => [finding.rule, finding.severity, finding.message])).toEqual([
      ['token-budget', 'error', `2025-11-25: ${tokens.total} tokens (o200k_base), over the budget of ${tokens.total - 1} by 1`],
      ['token-budget', 'error', `2026-07-28: ${tokens.total} tokens (o200k_base), over the budget of ${tokens.total - 1} by 1`],
    ]);
    expect(over.counts).toEqual({ error: 2, warn: 0 });
    expect(lintManifest(manifest, { budget: tokens.total }, tokens).findings).toEqual([]);
  });
});

describe('the lint config', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-lint-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("is read from package.json's mcpkit.lint, and from mcpkit-lint.json beside it first", () => {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x', mcpkit: { lint: { budget: 100 } } }));
    expect(readLintConfig(dir)).toEqual({ config: { budget: 100 }, source: join(dir, 'package.json') });
    writeFileSync(join(dir, 'mcpkit-lint.json'), JSON.stringify({ rules: { 'unbounded-string': 'off' } }));
    expect(readLintConfig(dir).config).toEqual({ rules: { 'unbounded-string': 'off' } });
  });

  it.each([
    [{ rules: { 'no-such-rule': 'warn' } }, /unknown rule no-such-rule/],
    [{ rules: { 'unbounded-string': 'loud' } }, /severity "loud" is not error, warn or off/],
    [{ rules: { 'enum-too-large': { max: 'ten' } } }, /enum-too-large: max must be a number/],
    [{ rules: { 'unbounded-string': { max: 3 } } }, /unbounded-string has no option max/],
    [{ budget: -1 }, /budget -1 is not a positive whole number/],
    [{ tokenizer: 'gpt2' }, /tokenizer "gpt2" is not known/],
    [{ rule: {} }, /unknown key rule/],
  ])('refuses %j', (config, message) => {
    expect(() => checkLintConfig(config, 'package.json')).toThrow(message);
  });
});
