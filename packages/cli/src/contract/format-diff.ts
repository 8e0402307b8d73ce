import { canonicalJson } from './canonical-json';
import type { DiffChange, DiffReport } from './diff';
import { SEVERITIES, type Severity } from './diff-rules';
import { MANIFEST_ERAS } from './manifest';

/** How `mcpkit diff` prints its report. */
export type DiffFormat = 'text' | 'markdown' | 'json';

function itemOf(change: DiffChange): string {
  return change.kind === 'server' ? 'server' : `${change.kind} ${change.name}`;
}

/** ` (2026-07-28 only)` when a change is not on every era. */
function erasNote(change: DiffChange): string {
  return change.eras.length === MANIFEST_ERAS.length ? '' : ` (${change.eras.join(', ')} only)`;
}

function summary(report: DiffReport): string {
  return SEVERITIES.map((severity) => `${report.counts[severity]} ${severity}`).join(', ');
}

function text(report: DiffReport): string {
  const lines = [`${report.from.name} ${report.from.version} → ${report.to.name} ${report.to.version}: ${summary(report)}`];
  if (report.changes.length === 0) lines.push('no changes');
  for (const severity of SEVERITIES) {
    const changes = report.changes.filter((change) => change.severity === severity);
    if (changes.length === 0) continue;
    lines.push('', severity.toUpperCase());
    for (const change of changes) {
      lines.push(`  ${itemOf(change)}${change.where ? `: ${change.where}` : ''}: ${change.message}${erasNote(change)} [${change.rule}]`);
      if ('witness' in change) lines.push(`      witness: ${canonicalJson(change.witness)}`);
    }
  }
  return lines.join('\n');
}

/** A table cell: pipes escaped, no line breaks. */
function cell(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** Code in a cell: a backtick run longer than any inside. */
function code(value: string): string {
  const fence = '`'.repeat(Math.max(0, ...(value.match(/`+/g) ?? []).map((run) => run.length)) + 1);
  return `${fence}${fence.length > 1 ? ' ' : ''}${cell(value)}${fence.length > 1 ? ' ' : ''}${fence}`;
}

const MARK: Record<Severity, string> = { breaking: '**breaking**', risky: 'risky', safe: 'safe' };

function markdown(report: DiffReport): string {
  const lines = [
    `### MCP contract: ${summary(report)}`,
    '',
    `${code(report.from.name)} ${cell(report.from.version)} → ${code(report.to.name)} ${cell(report.to.version)}`,
    '',
  ];
  if (report.changes.length === 0) return [...lines, 'No changes.'].join('\n');
  lines.push('| | item | change | rule |', '| --- | --- | --- | --- |');
  for (const change of report.changes) {
    const where = change.where ? `${cell(change.where)}: ` : '';
    const witness = 'witness' in change ? `<br>witness: ${code(canonicalJson(change.witness))}` : '';
    lines.push(
      `| ${MARK[change.severity]} | ${change.kind === 'server' ? 'server' : `${change.kind} ${code(change.name)}`} | ${where}${cell(change.message)}${cell(erasNote(change))}${witness} | ${code(change.rule)} |`,
    );
  }
  return lines.join('\n');
}

/**
 * A diff report as text (a terminal), markdown (a pull-request comment) or JSON (canonical:
 * the same report, the same bytes).
 */
export function formatDiff(report: DiffReport, format: DiffFormat = 'text'): string {
  if (format === 'json') return canonicalJson(report, 2);
  return format === 'markdown' ? markdown(report) : text(report);
}
