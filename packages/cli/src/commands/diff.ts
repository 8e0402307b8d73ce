import { CliError, EXIT } from '../cli-error';
import { diffManifests } from '../contract/diff';
import { SEVERITIES } from '../contract/diff-rules';
import { formatDiff, type DiffFormat } from '../contract/format-diff';
import { loadManifest } from '../contract/read-manifest';
import { out } from '../output';

/** Options of `mcpkit diff`. */
export interface DiffCommandOptions {
  format?: DiffFormat;
  /** Exit 1 when a change this harmful or worse is found (default `breaking`); `none`: always 0. */
  failOn?: 'breaking' | 'risky' | 'none';
  export?: string;
}

const FORMATS: readonly DiffFormat[] = ['text', 'markdown', 'json'];

/** `mcpkit diff <old> <new>`: each side a manifest file (`.json`) or an app; prints the report, exit 1 at `--fail-on`. */
export function diff(before: string, after: string, options: DiffCommandOptions): number {
  const format = options.format ?? 'text';
  const failOn = options.failOn ?? 'breaking';
  if (!FORMATS.includes(format))
    throw new CliError(`--format must be text, markdown or json, not ${format}`, 'mcpkit diff old.json new.json --format markdown');
  if (failOn !== 'none' && !SEVERITIES.includes(failOn))
    throw new CliError(`--fail-on must be breaking, risky or none, not ${String(failOn)}`, 'mcpkit diff old.json new.json --fail-on risky');
  const report = diffManifests(loadManifest(before, { export: options.export }).manifest, loadManifest(after, { export: options.export }).manifest);
  out(formatDiff(report, format));
  if (failOn === 'none') return EXIT.OK;
  const failing = SEVERITIES.slice(0, SEVERITIES.indexOf(failOn) + 1);
  return failing.some((severity) => report.counts[severity] > 0) ? EXIT.FAILURE : EXIT.OK;
}
