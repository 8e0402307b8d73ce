export { loadApp, resolveEntry, type LoadAppOptions } from './load-app';
export { describeApp } from './describe-app';
export { configSnippet, CLIENTS, type ClientName } from './commands/config';
export type { ClientServer } from './install/client-files';
export { parsePairs } from './commands/call';
export { CliError, EXIT } from './cli-error';
export {
  buildManifest,
  formatManifest,
  MANIFEST_ERAS,
  MANIFEST_VERSION,
  type Manifest,
  type ManifestEra,
  type ManifestEraName,
  type ManifestCompletion,
  type ManifestDigests,
} from './contract/manifest';
export { parseManifest, loadManifest, type LoadedManifest } from './contract/read-manifest';
export { canonicalJson, contentDigest } from './contract/canonical-json';
export { diffManifests, type DiffChange, type DiffReport, type DiffItemKind } from './contract/diff';
export { DIFF_RULES, SEVERITIES, type DiffRuleId, type Severity } from './contract/diff-rules';
export { compareInputSchemas, compareOutputSchemas, type SchemaChange } from './contract/schema-diff';
export { SchemaChecker, type SchemaCheck } from './contract/schema-check';
export { formatDiff, type DiffFormat } from './contract/format-diff';
export {
  lintManifest,
  LINT_RULES,
  type LintConfig,
  type LintFinding,
  type LintReport,
  type LintRuleId,
  type LintRuleSetting,
  type LintSeverity,
} from './contract/lint';
export { checkLintConfig, readLintConfig, LINT_CONFIG_FILE } from './contract/lint-config';
export {
  tokenCounter,
  tokenReport,
  TOKENIZERS,
  type TokenCounter,
  type TokenizerName,
  type TokenReport,
  type ToolTokens,
  type EraTokens,
} from './contract/token-count';
export { formatLint } from './contract/format-lint';
export { generateClient, templateVariables, type GenerateClientOptions } from './contract/client-gen';
export { buildServerJson, environmentVariables, SERVER_JSON_SCHEMA, type DeclaredEnv, type PackageJsonLike } from './contract/server-json';
export { buildMcpbManifest, MCPB_MANIFEST_VERSION, type BundlePackageJson } from './pack/mcpb-manifest';
