#!/usr/bin/env node
// CI's ES module check (issue #27): an app using the fetch binding (esm-fetch-app.mjs), bundled
// with esbuild as one ES module with every package inside, runs on Node and serves tools/list.
// Core's entry must not read `__dirname` or hook Node's loader when it loads. The banner is
// esbuild's usual one for Node ES module output: the CommonJS packages inside (class-validator,
// pino, core) require Node's built-in modules. Exit 0 when the answer lists the testbed's tools.
'use strict';

const { execFileSync } = require('node:child_process');
const { mkdirSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..', '..');
const { buildSync } = require(require.resolve('esbuild', { paths: [join(ROOT, 'packages', 'core')] }));
const outfile = join(ROOT, '.cache', 'esm-bundle', 'app.mjs');
mkdirSync(join(ROOT, '.cache', 'esm-bundle'), { recursive: true });

buildSync({
  entryPoints: [join(__dirname, 'esm-fetch-app.mjs')],
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outfile,
  // Resolved from the http package, as the app's own dependency would be.
  nodePaths: [join(ROOT, 'packages', 'http', 'node_modules'), join(ROOT, 'apps', 'testbed', 'node_modules')],
  banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  logLevel: 'warning',
});

const out = execFileSync(process.execPath, [outfile], { encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'warn' }, timeout: 60_000 });
const answer = JSON.parse(out.trim().split('\n').pop());
const ok = answer.status === 200 && Array.isArray(answer.tools) && answer.tools.includes('echo');
console.log(`esm bundle (${outfile}): HTTP ${answer.status}, ${Array.isArray(answer.tools) ? `${answer.tools.length} tools` : JSON.stringify(answer.tools)}`);
process.exitCode = ok ? 0 : 1;
