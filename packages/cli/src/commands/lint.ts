import { dirname } from 'node:path';
import { CliError, EXIT } from '../cli-error';
import { formatLint } from '../contract/format-lint';
import { lintManifest } from '../contract/lint';
import { readLintConfig } from '../contract/lint-config';
import { loadManifest } from '../contract/read-manifest';
import { tokenCounter, tokenReport, TOKENIZERS, type TokenizerName } from '../contract/token-count';
import { canonicalJson } from '../contract/canonical-json';
import { out } from '../output';

/** Options of `mcpkit lint`. */
export interface LintCommandOptions {
  /** Fail when an era's tools/list and instructions cost more tokens than this (overrides the config). */
  budget?: string;
  tokenizer?: string;
  /** A lint config file (default: mcpkit-lint.json beside package.json, else package.json's mcpkit.lint). */
  config?: string;
  json?: boolean;
  export?: string;
}

/** `mcpkit lint [entry]`: the lint rules and the token cost; exit 1 on an error (a budget exceeded is one). */
export function lint(entry: string | undefined, options: LintCommandOptions): number {
  const { config } = readLintConfig(entry && !entry.endsWith('.json') ? dirname(entry) : process.cwd(), options.config);
  if (options.budget !== undefined) {
    const budget = Number(options.budget);
    if (!(Number.isInteger(budget) && budget > 0))
      throw new CliError(`--budget must be a positive whole number of tokens, not ${options.budget}`, 'mcpkit lint --budget 8000');
    config.budget = budget;
  }
  if (options.tokenizer !== undefined) {
    if (!TOKENIZERS.includes(options.tokenizer as TokenizerName))
      throw new CliError(`--tokenizer must be ${TOKENIZERS.join(' or ')}, not ${options.tokenizer}`, 'mcpkit lint --tokenizer cl100k_base');
    config.tokenizer = options.tokenizer as TokenizerName;
  }
  const { manifest } = loadManifest(entry, { export: options.export });
  const tokenizer = config.tokenizer ?? 'o200k_base';
  const report = lintManifest(manifest, config, tokenReport(manifest, tokenCounter(tokenizer), tokenizer));
  out(options.json ? canonicalJson(report, 2) : formatLint(report, `${manifest.server.name} ${manifest.server.version}`));
  return report.counts.error > 0 ? EXIT.FAILURE : EXIT.OK;
}
