// Regenerates the table section of docs/benchmarks.md from docs/benchmarks.json.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderMarkdown } from './report';

const DOCS = join(__dirname, '..', '..', '..', 'docs');
const BEGIN = '<!-- bench:begin (generated from benchmarks.json by pnpm bench; do not edit) -->';
const END = '<!-- bench:end -->';

/** The page with its generated section replaced by the tables of `results`. */
export function withTables(page: string, results: Record<string, unknown>): string {
  const start = page.indexOf(BEGIN);
  const end = page.indexOf(END);
  if (start === -1 || end === -1) throw new Error('docs/benchmarks.md lacks the bench:begin / bench:end markers');
  const node24 = results.node24 ? ` (the Node 24 rows on ${String(results.node24)})` : '';
  const meta = `Run of ${String(results.date).slice(0, 10)} on Node ${String(results.node)}${node24}: ${String(results.calls)} calls per figure, median of ${String(results.rounds)} interleaved rounds, ${String(results.seconds)} s in all.`;
  return `${page.slice(0, start + BEGIN.length)}\n${meta}\n\n${renderMarkdown(results)}\n${page.slice(end)}`;
}

if (require.main === module) {
  const results = JSON.parse(readFileSync(join(DOCS, 'benchmarks.json'), 'utf8')) as Record<string, unknown>;
  const path = join(DOCS, 'benchmarks.md');
  writeFileSync(path, withTables(readFileSync(path, 'utf8'), results));
}
