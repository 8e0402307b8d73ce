#!/usr/bin/env node
// `pnpm conformance`: runs the official MCP conformance suite against apps/everything.
//
// Installs Node 22 (the suite needs it; it comes from the npm registry) and the pinned suite
// versions into .cache/conformance (`--install`: only that, so CI can download them early), starts the built everything server on an ephemeral port,
// runs each suite, and judges every scenario from its checks.json against
// expected-failures.yml. The suite's own exit code is not used: it ignores unscored scenarios.
'use strict';

const { spawnSync } = require('node:child_process');
const { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const npmCache = require('../../../scripts/npm-cache');
const { startHttpServer } = require('../../../scripts/http-server');

const CACHE = join(npmCache.CACHE, 'conformance');
const { ROOT, ensurePackage } = npmCache;
const SUITES = [
  { id: 'v0.1.16-active', version: '0.1.16', args: ['--suite', 'active'], requirements: undefined },
  { id: 'alpha.12-requirements-2025-11-25', version: '0.2.0-alpha.12', args: ['--requirements', '2025-11-25'], requirements: '2025-11-25' },
  { id: 'alpha.12-requirements-2026-07-28', version: '0.2.0-alpha.12', args: ['--requirements', '2026-07-28'], requirements: '2026-07-28' },
];

function log(line) {
  process.stdout.write(`${line}\n`);
}

/** Minimal reader for our expected-failures file and the suite's requirement lists. */
function readLists(text) {
  const lists = {};
  let current;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*$/, '').trimEnd();
    if (!line.trim()) continue;
    const key = /^([A-Za-z0-9_.-]+):\s*$/.exec(line);
    if (key) {
      current = lists[key[1]] = [];
      continue;
    }
    const item = /^\s+-\s+([A-Za-z0-9_./-]+)\s*$/.exec(line);
    if (item && current) current.push(item[1]);
    else if (!/^\s/.test(line)) current = undefined;
  }
  return lists;
}

function runSuite(node, suite, url, outDir) {
  const cli = join(CACHE, suite.version, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
  rmSync(outDir, { recursive: true, force: true });
  const result = spawnSync(node, [cli, 'server', '--url', url, ...suite.args, '-o', outDir], { encoding: 'utf8', timeout: 600_000 });
  const summary = (result.stdout ?? '').split('=== SUMMARY ===')[1];
  if (summary) log(summary.trim());
  else log(`${result.stdout ?? ''}\n${result.stderr ?? ''}`.slice(-3000));
}

/** Every scenario's checks, keyed by scenario name (directory `server-<name>-<timestamp>`). */
function readResults(outDir) {
  const results = {};
  if (!existsSync(outDir)) return results;
  for (const entry of readdirSync(outDir)) {
    const match = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry);
    if (!match) continue;
    const checks = JSON.parse(readFileSync(join(outDir, entry, 'checks.json'), 'utf8'));
    results[match[1]] = {
      passed: checks.filter((check) => check.status === 'SUCCESS').length,
      failed: checks.filter((check) => check.status === 'FAILURE').length,
      failures: checks.filter((check) => check.status === 'FAILURE').map((check) => `${check.id}: ${check.errorMessage ?? ''}`),
    };
  }
  return results;
}

/** Node 22 and each pinned suite version, installed unless there (`--install` does only this). */
function install() {
  const node = npmCache.ensureNode22();
  for (const version of new Set(SUITES.map((suite) => suite.version))) ensurePackage(join(CACHE, version), '@modelcontextprotocol/conformance', version);
  return node;
}

async function main() {
  const node = install();
  const expected = readLists(readFileSync(join(__dirname, 'expected-failures.yml'), 'utf8'));

  const { child, url } = await startHttpServer(join(ROOT, 'apps', 'everything', 'dist', 'main.js'));
  const totals = { passed: 0, failed: 0, skipped: 0, suites: {} };
  try {
    for (const suite of SUITES) {
      log(`\n=== conformance ${suite.id} against ${url}`);
      const outDir = join(CACHE, 'results', suite.id);
      runSuite(node, suite, url, outDir);
      const results = readResults(outDir);
      const scored = suite.requirements
        ? new Set(
            readLists(
              readFileSync(
                join(CACHE, suite.version, 'node_modules', '@modelcontextprotocol', 'conformance', 'requirements', `${suite.requirements}.yaml`),
                'utf8',
              ),
            ).server,
          )
        : new Set(Object.keys(results));
      const expectedHere = new Set(expected[suite.id] ?? []);
      const report = { scoredChecks: { passed: 0, failed: 0 }, unexpected: [], stale: [], expected: [], passing: [] };
      for (const [scenario, result] of Object.entries(results)) {
        if (scored.has(scenario)) {
          report.scoredChecks.passed += result.passed;
          report.scoredChecks.failed += result.failed;
        }
        const failing = result.failed > 0;
        if (failing && expectedHere.has(scenario)) report.expected.push(scenario);
        else if (failing) report.unexpected.push(`${scenario} (${result.failures.join('; ')})`);
        else if (expectedHere.has(scenario)) report.stale.push(scenario);
        else report.passing.push(scenario);
      }
      for (const scenario of scored) if (!(scenario in results)) report.unexpected.push(`${scenario} (did not run)`);
      log(`scored checks: ${report.scoredChecks.passed} passed, ${report.scoredChecks.failed} failed`);
      log(
        `scenarios: ${report.passing.length} pass, ${report.expected.length} fail as expected (later issues), ${report.unexpected.length} fail unexpectedly, ${report.stale.length} listed but now pass`,
      );
      for (const line of report.unexpected) log(`  UNEXPECTED FAILURE: ${line}`);
      for (const line of report.stale) log(`  NOW PASSES, remove from expected-failures.yml: ${line}`);
      totals.passed += report.passing.length;
      totals.failed += report.unexpected.length + report.stale.length;
      totals.skipped += report.expected.length;
      totals.suites[suite.id] = report;
    }
  } finally {
    child.kill('SIGTERM');
  }
  writeFileSync(join(CACHE, 'summary.json'), JSON.stringify(totals, null, 2));
  log(`\nconformance: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped (expected failures)`);
  process.exitCode = totals.failed === 0 ? 0 : 1;
}

if (process.argv.includes('--install')) install();
else
  main().catch((error) => {
    process.stderr.write(`conformance run failed: ${error.stack ?? error}\n`);
    process.exitCode = 1;
  });
