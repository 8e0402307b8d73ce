import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CliError } from '../cli-error';
import { LINT_RULES, type LintConfig, type LintRuleId } from './lint';
import { TOKENIZERS } from './token-count';

/** The config file `mcpkit lint` looks for beside package.json. */
export const LINT_CONFIG_FILE = 'mcpkit-lint.json';

const SEVERITIES = new Set(['error', 'warn', 'off']);

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new CliError(
      `Could not read ${path}: ${(error as Error).message}`,
      'The lint config is JSON: { "rules": { "unbounded-string": "off" }, "budget": 8000 }',
    );
  }
}

type Fail = (problem: string, hint: string) => CliError;

/**
 * Checks a lint config: known rules, severities and numeric options, a positive budget, a known
 * tokenizer.
 *
 * @throws CliError naming `source` and what is wrong.
 */
export function checkLintConfig(value: unknown, source: string): LintConfig {
  const fail: Fail = (problem, hint) => new CliError(`${source}: ${problem}`, hint);
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw fail('the lint config must be an object', '{ "rules": { "unbounded-string": "off" }, "budget": 8000 }');
  const { rules, budget, tokenizer, ...rest } = value as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw fail(`unknown key ${unknown[0]}`, 'The lint config has rules, budget and tokenizer.');
  if (budget !== undefined && !(Number.isInteger(budget) && (budget as number) > 0))
    throw fail(`budget ${JSON.stringify(budget)} is not a positive whole number`, 'e.g. "budget": 8000');
  if (tokenizer !== undefined && !TOKENIZERS.includes(tokenizer as never))
    throw fail(`tokenizer ${JSON.stringify(tokenizer)} is not known`, `One of ${TOKENIZERS.join(', ')}.`);
  if (rules !== undefined && (typeof rules !== 'object' || rules === null || Array.isArray(rules)))
    throw fail('rules must be an object', '"rules": { "unbounded-string": "off" }');
  for (const [rule, setting] of Object.entries((rules ?? {}) as Record<string, unknown>)) checkRuleSetting(rule, setting, fail);
  return value as LintConfig;
}

/** One entry of `rules`: a severity, or an object with a severity and the rule's numeric options. */
function checkRuleSetting(rule: string, setting: unknown, fail: Fail): void {
  if (!(rule in LINT_RULES)) throw fail(`unknown rule ${rule}`, `The rules are ${Object.keys(LINT_RULES).join(', ')}.`);
  const isObject = typeof setting === 'object' && setting !== null;
  const severity = isObject ? (setting as { severity?: unknown }).severity : setting;
  if (severity !== undefined && !SEVERITIES.has(severity as string))
    throw fail(`rule ${rule}: severity ${JSON.stringify(severity)} is not error, warn or off`, `"${rule}": "warn"`);
  if (isObject) checkRuleOptions(rule as LintRuleId, setting, fail);
}

function checkRuleOptions(rule: LintRuleId, setting: object, fail: Fail): void {
  const known = Object.keys(LINT_RULES[rule].options);
  for (const [option, given] of Object.entries(setting)) {
    if (option === 'severity') continue;
    if (!known.includes(option))
      throw fail(`rule ${rule} has no option ${option}`, known.length > 0 ? `Its options: ${known.join(', ')}.` : 'It has no options.');
    if (typeof given !== 'number' || !Number.isFinite(given))
      throw fail(`rule ${rule}: ${option} must be a number`, `"${rule}": { "${option}": ${String(Object.values(LINT_RULES[rule].options)[0] ?? 1)} }`);
  }
}

/**
 * The lint config of a project: `file` when given; else, beside the nearest package.json from
 * `from`, mcpkit-lint.json, else that package.json's `"mcpkit": { "lint": … }`; else none.
 */
export function readLintConfig(from: string, file?: string): { config: LintConfig; source?: string } {
  if (file !== undefined) {
    const path = resolve(file);
    if (!existsSync(path)) throw new CliError(`No such file: ${file}`, `Write the lint config as JSON, e.g. ${LINT_CONFIG_FILE}.`);
    return { config: checkLintConfig(readJson(path), file), source: file };
  }
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const own = join(dir, LINT_CONFIG_FILE);
      if (existsSync(own)) return { config: checkLintConfig(readJson(own), own), source: own };
      const lint = (readJson(manifest) as { mcpkit?: { lint?: unknown } }).mcpkit?.lint;
      return lint === undefined ? { config: {} } : { config: checkLintConfig(lint, `${manifest} (mcpkit.lint)`), source: manifest };
    }
    if (dirname(dir) === dir) return { config: {} };
  }
}
