import { LINT_RULES, type LintReport } from './lint';

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** Right-aligned columns. */
function row(cells: ReadonlyArray<string | number>, widths: readonly number[]): string {
  return cells.map((cell, index) => (index === 0 ? String(cell).padEnd(widths[0]) : String(cell).padStart(widths[index]))).join('  ');
}

/**
 * A lint report as text: the findings grouped by rule (errors first) with the rule's fix once,
 * then the token cost per tool (costliest first) and per era.
 */
export function formatLint(report: LintReport, title: string): string {
  const lines = [`${title}: ${plural(report.counts.error, 'error')}, ${plural(report.counts.warn, 'warning')}`];
  for (const severity of ['error', 'warn'] as const) {
    for (const rule of Object.keys(LINT_RULES) as Array<keyof typeof LINT_RULES>) {
      const findings = report.findings.filter((finding) => finding.rule === rule && finding.severity === severity);
      if (findings.length === 0) continue;
      lines.push('', `${severity} ${rule} (${findings.length}): ${LINT_RULES[rule].summary}`, `  fix: ${LINT_RULES[rule].fix}`);
      for (const finding of findings) lines.push(`  ${finding.item}${finding.where ? `: ${finding.where}` : ''}: ${finding.message}`);
    }
  }
  const tokens = report.tokens;
  if (tokens) {
    lines.push('', `tokens (${tokens.tokenizer}), per tool, costliest first:`);
    const tools = [...tokens.tools].sort((a, b) => b.total - a.total || (a.name < b.name ? -1 : 1));
    const widths = [Math.max(4, ...tools.map((tool) => tool.name.length)), 11, 5, 6, 5];
    lines.push(`  ${row(['tool', 'description', 'input', 'output', 'total'], widths)}`);
    for (const tool of tools) lines.push(`  ${row([tool.name, tool.description, tool.inputSchema, tool.outputSchema, tool.total], widths)}`);
    for (const era of tokens.eras) lines.push(`${era.era}: tools/list ${era.toolsList} + instructions ${era.instructions} = ${era.total} tokens`);
  }
  return lines.join('\n');
}
