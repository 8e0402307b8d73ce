import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApp, defineTool, type McpApp, type ToolAnnotations } from '@mcpkit/core';
import { diffManifests } from './diff';
import { DIFF_RULES } from './diff-rules';
import { formatDiff } from './format-diff';
import { buildManifest } from './manifest';

const FIXTURES = join(__dirname, '..', '..', 'test', 'fixtures', 'contract');
/* eslint-disable @typescript-eslint/no-require-imports */
const v1 = (require(join(FIXTURES, 'v1.js')) as { app: McpApp }).app;
const v2 = (require(join(FIXTURES, 'v2.js')) as { app: McpApp }).app;
/* eslint-enable @typescript-eslint/no-require-imports */

function tool(annotations?: ToolAnnotations, description = 'Does it'): McpApp {
  return createApp({ name: 'one', version: '1.0.0', providers: [defineTool({ name: 'act', description, annotations }, () => 'ok')] });
}

describe('diffManifests', () => {
  const report = diffManifests(buildManifest(v1), buildManifest(v2));

  it('classifies every change of the fixture pair v1 → v2 exactly as expected (test/fixtures/contract/v1-to-v2.txt)', () => {
    expect(`${formatDiff(report)}\n`).toBe(readFileSync(join(FIXTURES, 'v1-to-v2.txt'), 'utf8'));
    expect(report.counts).toEqual({ breaking: 26, risky: 11, safe: 20 });
  });

  it('fires every rule on the fixture pair, each with its severity', () => {
    const fired = new Set(report.changes.map((change) => change.rule));
    expect(Object.keys(DIFF_RULES).filter((rule) => !fired.has(rule as keyof typeof DIFF_RULES))).toEqual([]);
    for (const change of report.changes) expect(change.severity).toBe(DIFF_RULES[change.rule].severity);
  });

  it('prints a witness for every breaking schema change but a removed output field that was optional', () => {
    const schemaChanges = report.changes.filter((change) => change.severity === 'breaking' && /^(input|output) /.test(change.where ?? ''));
    expect(schemaChanges.filter((change) => !('witness' in change))).toEqual([]);
  });

  it('finds nothing between an app and itself, or two builds of it', () => {
    expect(diffManifests(buildManifest(v1), buildManifest(v1)).changes).toEqual([]);
    expect(diffManifests(buildManifest(tool()), buildManifest(tool())).changes).toEqual([]);
  });

  it('reads absent hints with their defaults: destructiveHint absent is true, openWorldHint absent is true', () => {
    const rules = (before: McpApp, after: McpApp) =>
      diffManifests(buildManifest(before), buildManifest(after)).changes.map((change) => `${change.rule}: ${change.message}`);
    expect(rules(tool({ destructiveHint: false }), tool({}))).toEqual(['annotation-destructive-added: destructiveHint false → none: may destroy now']);
    expect(rules(tool({}), tool({ destructiveHint: true, openWorldHint: true }))).toEqual([
      'metadata-changed: {} → {"destructiveHint":true,"openWorldHint":true}',
    ]);
    // A read-only tool destroys nothing, whatever destructiveHint says; dropping readOnlyHint may.
    expect(rules(tool({ readOnlyHint: true }), tool({}))).toEqual([
      'annotation-destructive-added: destructiveHint none → none: may destroy now',
      'annotation-read-only-dropped: readOnlyHint true → none: may write now',
    ]);
    expect(rules(tool({ readOnlyHint: false }), tool({ readOnlyHint: true }))).toEqual(['metadata-changed: {"readOnlyHint":false} → {"readOnlyHint":true}']);
    expect(rules(tool({}, 'Old'), tool({}, 'New'))).toEqual(['tool-description-changed: "Old" → "New"']);
  });

  it('prints markdown for a pull request and JSON that is the report itself', () => {
    const markdown = formatDiff(report, 'markdown');
    expect(markdown.split('\n').slice(0, 6)).toEqual([
      '### MCP contract: 26 breaking, 11 risky, 20 safe',
      '',
      '`contract-fixture` 1.0.0 → `contract-fixture` 2.0.0',
      '',
      '| | item | change | rule |',
      '| --- | --- | --- | --- |',
    ]);
    expect(markdown).toContain(
      '| **breaking** | tool `search` | input /limit: maximum ≤ 100 → ≤ 50<br>witness: `{"limit":51,"query":"abc","scope":""}` | `input-constraint-tightened` |',
    );
    expect(markdown).toContain('| safe | server | capabilities: logging added (2025-11-25 only) | `capability-added` |');
    expect(JSON.parse(formatDiff(report, 'json'))).toEqual(JSON.parse(JSON.stringify(report)));
  });
});
