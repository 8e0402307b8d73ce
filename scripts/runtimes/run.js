#!/usr/bin/env node
// The runtime matrix (issue #31 §2, docs/runtimes.md): the fixture app (apps/runtimes) on every
// runtime the docs name, each cell checked by the same scripted client (check-http.js: tools/list,
// a tools/call with valid and invalid input, progress on an SSE answer, on both eras).
//
//   node scripts/runtimes/run.js             installs what is missing, builds the fixture, checks every cell
//   node scripts/runtimes/run.js --install   only installs the runtimes (network-bound: start it early)
//
// Needs the workspace built (`pnpm build`). Runtimes come from the npm registry into .cache (once;
// Node 22 and 24 share the caches of scripts/npm-cache.js and scripts/node24.js). Prints a line per
// check, the matrix, and ends with `N passed, M failed`; exit 0 when nothing failed.
'use strict';

const { spawn, spawnSync } = require('node:child_process');
const { existsSync, mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { CACHE, ROOT, ensureNode22, ensurePackage } = require('../npm-cache');
const { ensureNode24Bin } = require('../node24');
const { checkHttp, checkStdio } = require('./check-http');
const { checkToolchains } = require('./toolchains');

const BUN = { name: '@oven/bun-linux-x64', version: '1.4.4', binary: ['bin', 'bun'] };
// What `npm install deno` installs on Linux x64 (the `deno` package only picks it and links it).
const DENO = { name: '@deno/linux-x64-glibc', version: '2.9.6', binary: ['deno'] };
const FIXTURE = join(ROOT, 'apps', 'runtimes');
const MAIN = join(FIXTURE, 'dist', 'main.js');
const WORKERD = join(__dirname, 'workerd.js');
/** Cells checked at once: each is a server and a client process on a shared 2-core machine. */
const PARALLEL = 3;
const START_TIMEOUT_MS = 30_000;

function seconds(since) {
  return ((performance.now() - since) / 1000).toFixed(1);
}

function sizeMb(dir) {
  const out = spawnSync('du', ['-sm', dir], { encoding: 'utf8' }).stdout;
  return Number(out.split('\t')[0]);
}

/** Every runtime's binary, installed if missing; prints what each download cost. */
function installRuntimes() {
  const timed = (label, install, folder) => {
    const started = performance.now();
    const binary = install();
    console.log(`runtime ${label}: ${binary} (${seconds(started)} s, ${sizeMb(folder)} MB in ${folder.slice(ROOT.length + 1)})`);
    return binary;
  };
  const fromPackage = (spec, folder) => join(ensurePackage(folder, spec.name, spec.version), ...spec.binary);
  return {
    node22: timed('Node 22', ensureNode22, join(CACHE, 'node22')),
    node24: timed('Node 24', () => join(ensureNode24Bin(), 'node'), join(CACHE, 'node24')),
    bun: timed(`Bun ${BUN.version}`, () => fromPackage(BUN, join(CACHE, 'runtimes', 'bun')), join(CACHE, 'runtimes', 'bun')),
    deno: timed(`Deno ${DENO.version}`, () => fromPackage(DENO, join(CACHE, 'runtimes', 'deno')), join(CACHE, 'runtimes', 'deno')),
  };
}

/** Starts an HTTP cell's server and resolves to its URL (the `listening <url>` line it prints on stderr). */
function startServer(command, args, env) {
  const child = spawn(command, args, { cwd: FIXTURE, env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening" line in ${START_TIMEOUT_MS} ms: ${stderr.trim().slice(-400)}`)), START_TIMEOUT_MS);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      stderr = (stderr + chunk).slice(-8000);
      const found = /listening (\S+)/.exec(stderr);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    child.once('error', (error) => reject(error));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening: ${stderr.trim().slice(-400)}`));
    });
  });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { url, stop };
}

/** The cells: runtime row, binding column, and how to check it. */
function cells(bins) {
  const nodes = [
    ['Node 20', process.execPath],
    ['Node 22', bins.node22],
    ['Node 24', bins.node24],
  ];
  const list = [];
  for (const [row, node] of nodes) {
    list.push({ row, column: 'stdio', stdio: [node, [MAIN, 'stdio']] });
    list.push({ row, column: 'serveHttp', http: [node, [MAIN, 'http']] });
    list.push({ row, column: 'fetch: node:http', http: [node, [MAIN, 'node-fetch']] });
    list.push({ row, column: 'fetch: Hono', http: [node, [MAIN, 'hono']] });
  }
  list.push({ row: 'Bun', column: 'stdio', stdio: [bins.bun, [MAIN, 'stdio']] });
  list.push({ row: 'Bun', column: 'serveHttp', http: [bins.bun, [MAIN, 'http']] });
  list.push({ row: 'Bun', column: 'fetch: Bun.serve', http: [bins.bun, [MAIN, 'bun']] });
  // Deno runs the tsc output as CommonJS (the fixture's package.json says "type": "commonjs"), and
  // reads that package.json, so `npm:@mcpkit/http` in deno/main.ts resolves to its node_modules.
  list.push({ row: 'Deno', column: 'stdio', stdio: [bins.deno, ['run', '--allow-all', MAIN, 'stdio']] });
  list.push({ row: 'Deno', column: 'serveHttp', http: [bins.deno, ['run', '--allow-all', MAIN, 'http']] });
  list.push({ row: 'Deno', column: 'fetch: Deno.serve', http: [bins.deno, ['run', '--allow-all', join(FIXTURE, 'deno', 'main.ts')]] });
  return list;
}

/** One cell: its lines are gathered and printed together once it is done. */
async function runCell(cell) {
  const lines = [];
  const log = (line) => lines.push(line);
  const name = `${cell.row} ${cell.column}`;
  const started = performance.now();
  let totals;
  if (cell.stdio) {
    const env = { ...process.env, LOG_LEVEL: 'warn', DENO_DIR: join(CACHE, 'runtimes', 'deno-dir') };
    totals = await checkStdio(cell.stdio[0], cell.stdio[1], { cell: name, cwd: FIXTURE, env, log });
  } else {
    const server = startServer(...cell.http, { DENO_DIR: join(CACHE, 'runtimes', 'deno-dir') });
    try {
      totals = await checkHttp(await server.url, { cell: name, log });
    } catch (error) {
      log(`  FAIL ${name} start: ${error.message}`);
      totals = { passed: 0, failed: 1 };
    } finally {
      await server.stop();
    }
  }
  lines.push(`${name}: ${totals.passed} passed, ${totals.failed} failed (${seconds(started)} s)`);
  console.log(lines.join('\n'));
  return { ...cell, ...totals };
}

/** Runs `work` over `items`, at most `limit` at once, keeping their order in the result. */
async function pool(items, limit, work) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** The Workers row, when scripts/runtimes/workerd.js exists: its own `N passed, M failed` line. */
function runWorkerd() {
  if (!existsSync(WORKERD)) return null;
  const started = performance.now();
  const result = spawnSync(process.execPath, [WORKERD], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 300_000 });
  process.stdout.write(result.stdout ?? '');
  const last = /(\d+) passed, (\d+) failed\s*$/.exec(result.stdout ?? '');
  const totals =
    last && result.status === 0
      ? { passed: Number(last[1]), failed: Number(last[2]) }
      : { passed: last ? Number(last[1]) : 0, failed: last ? Math.max(1, Number(last[2])) : 1 };
  console.log(`Workers (workerd): ${totals.passed} passed, ${totals.failed} failed (${seconds(started)} s)`);
  return { row: 'Workers (workerd)', column: 'fetch: Worker', ...totals };
}

function table(results) {
  const columns = ['stdio', 'serveHttp', 'fetch binding'];
  const rows = [...new Set(results.map((result) => result.row))];
  const lines = [`| runtime | ${columns.join(' | ')} |`, `|---|${columns.map(() => '---').join('|')}|`];
  for (const row of rows) {
    const cellsOf = (column) =>
      results
        .filter((result) => result.row === row && (column === 'fetch binding' ? result.column.startsWith('fetch') : result.column === column))
        .map((result) =>
          `${result.failed === 0 ? '✓' : '✗'} ${result.column.replace(/^fetch: /, '')} ${result.passed}/${result.passed + result.failed}`.replace(
            /^(.) (stdio|serveHttp) /,
            '$1 ',
          ),
        );
    lines.push(`| ${row} | ${columns.map((column) => cellsOf(column).join(', ') || '—').join(' | ')} |`);
  }
  return lines.join('\n');
}

async function main() {
  const started = performance.now();
  console.log('installing the runtimes (npm registry, cached in .cache)');
  const bins = installRuntimes();
  if (process.argv.includes('--install')) return { passed: 0, failed: 0, only: true };
  const downloaded = performance.now();

  const build = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc', { paths: [FIXTURE] }), '-p', join(FIXTURE, 'tsconfig.json')], {
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('the fixture app (apps/runtimes) did not build: run `pnpm build` first');
  console.log(`fixture built (${seconds(downloaded)} s)`);

  const results = await pool(cells(bins), PARALLEL, runCell);
  const workerd = runWorkerd();
  if (workerd) results.push(workerd);

  // Decorator toolchains: TypeScript run as is, launched from the app's folder and from another one.
  const elsewhere = mkdtempSync(join(tmpdir(), 'mcpkit-runtimes-'));
  let toolchains;
  try {
    toolchains = await checkToolchains({ bins, fixture: FIXTURE, elsewhere, denoDir: join(CACHE, 'runtimes', 'deno-dir') });
  } finally {
    rmSync(elsewhere, { recursive: true, force: true });
  }

  console.log(`\n${table(results)}\n\n${toolchains.table}\n`);
  console.log(`checks after the downloads: ${seconds(downloaded)} s (downloads and cache checks: ${((downloaded - started) / 1000).toFixed(1)} s)`);
  const sum = (key) => results.reduce((total, result) => total + result[key], 0) + toolchains[key];
  return { passed: sum('passed'), failed: sum('failed') };
}

main().then(
  ({ passed, failed, only }) => {
    if (only) return;
    console.log(`${passed} passed, ${failed} failed`);
    process.exitCode = failed === 0 && passed > 0 ? 0 : 1;
  },
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    console.log('0 passed, 1 failed');
    process.exitCode = 1;
  },
);
